export type { TConnectionCheck } from "@/lib/gateway/certificate";
export type { TTwoFactorRequirement } from "./app-settings";
