import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

// Joins class names and lets a later Tailwind class win over an earlier one of the same kind,
// so callers can override a primitive's defaults with `className`.
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
