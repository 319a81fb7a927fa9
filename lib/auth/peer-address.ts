import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { peerAddressHeader } from "./client-address";

const installed = Symbol.for("payments-dashboard.peer-address-header");

// Next.js gives handlers no socket address and keeps a client's X-Forwarded-For; Node shows each request here first.
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
