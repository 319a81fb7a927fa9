import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { peerAddressHeader } from "./client-address";

const installed = Symbol.for("payments-dashboard.peer-address-header");

// Next.js exposes no socket address to route handlers or server actions, and sets X-Forwarded-For from the
// socket only when a client did not send one. Node publishes every request here before any handler sees it.
export function installPeerAddressHeader(): void {
  const registry = globalThis as { [installed]?: boolean };
  if (registry[installed]) return;
  registry[installed] = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    if (socket.remoteAddress) request.headers[peerAddressHeader] = socket.remoteAddress;
    else delete request.headers[peerAddressHeader];
  });
}
