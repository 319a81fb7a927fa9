import "server-only";

// The settings page's view of the gateway connection: the client certificate's public facts and a
// live authenticated check. The work is the gateway layer's; pages and actions come through here.
export {
  checkGatewayConnection,
  getGatewayCertificateReport,
  type TCertificateInfo,
  type TConnectionCheck,
  type TGatewayCertificateReport,
} from "@/lib/gateway/certificate";
