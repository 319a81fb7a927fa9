// Types only, for client components: the answer of the connection check and the certificate view.
export type { TCertificateInfo, TConnectionCheck, TGatewayCertificateReport } from "@/lib/gateway/certificate";
export type { TTwoFactorRequirement } from "./app-settings";
