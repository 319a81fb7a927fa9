import "server-only";

export {
  checkGatewayConnection,
  getGatewayCertificateReport,
  type TCertificateInfo,
} from "@/lib/gateway/certificate";
