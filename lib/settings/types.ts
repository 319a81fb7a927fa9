// Types only, for client components: the answer of the connection check and the certificate view.
export type { TConnectionCheck } from "@/lib/gateway/certificate";
export type { TTwoFactorRequirement } from "./app-settings";
