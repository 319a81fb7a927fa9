import "server-only";

// The work is the gateway layer's; the settings page and its actions come through here.
export {
  checkGatewayConnection,
  getGatewayCertificateReport,
  type TCertificateInfo,
} from "@/lib/gateway/certificate";
