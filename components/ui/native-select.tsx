import { ChevronDownIcon } from "lucide-react";
import type { ComponentProps } from "react";

import { cn } from "@/lib/utils";

import { inputClassName } from "./input";

/**
 * A styled native `<select>`: for filter forms that submit with GET and for places where the
 * browser's own picker (mobile) is better than a popover.
 */
export function NativeSelect({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className={cn("relative w-full", className)}>
      <select data-slot="native-select" className={cn(inputClassName, "appearance-none pr-8")} {...props}>
        {children}
      </select>
      <ChevronDownIcon
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 opacity-60"
      />
    </div>
  );
}
