"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";

import { useLiveRefresh } from "@/components/live/live-refresh";
import { useIsLive } from "@/components/live/use-live-changes";
import type { TPixChargeView } from "@/lib/pix/types";

import { hasUnsettledRefund, pixChargePollIntervalMs } from "./pix-charge-poll";

// The server pushes changes (/api/events) when a webhook tells it of a payment; polling is then
// only a slow fallback. Without a webhook (none registered, or the push stream is down) the
// page polls the read endpoint briskly, so a payment shows within about two seconds.
const livePollIntervalMs = 30_000;
const fallbackPollIntervalMs = 1_500;

const pixChargeQueryKey = (txid: string) => ["pix-charge", txid] as const;

class PixChargeFetchError extends Error {
  constructor(readonly status: number) {
    super(`GET /api/pix/charges failed with ${status}`);
  }
}

async function fetchPixCharge(txid: string, isFromGateway = false): Promise<TPixChargeView> {
  const query = isFromGateway ? "?refresh=1" : "";
  const response = await fetch(`/api/pix/charges/${encodeURIComponent(txid)}${query}`, { cache: "no-store" });
  if (!response.ok) throw new PixChargeFetchError(response.status);
  return (await response.json()) as TPixChargeView;
}

/**
 * The charge as the server rendered it, then kept current: read again when the server reports a
 * change of it, and polled while it awaits payment and the tab is visible (TanStack Query pauses
 * interval refetches in hidden tabs), not at all once it is paid, expired or cancelled. While a refund is
 * unsettled it is read from the gateway (no webhook tells of a refused refund), so its held amount comes back.
 */
export function usePixCharge(initial: TPixChargeView, isPaymentPushed: boolean) {
  const isLive = useIsLive();
  const pollIntervalMs = isLive && isPaymentPushed ? livePollIntervalMs : fallbackPollIntervalMs;
  const queryClient = useQueryClient();
  useLiveRefresh({ kinds: ["pix_charge"], id: initial.txid }, { queryKey: pixChargeQueryKey(initial.txid) });
  const query = useQuery({
    queryKey: pixChargeQueryKey(initial.txid),
    queryFn: () =>
      fetchPixCharge(
        initial.txid,
        hasUnsettledRefund(queryClient.getQueryData<TPixChargeView>(pixChargeQueryKey(initial.txid))),
      ),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.syncedAt),
    refetchInterval: (current) => pixChargePollIntervalMs(current.state.data, pollIntervalMs),
    refetchIntervalInBackground: false,
    // A client-side navigation reuses an open push stream, which could not tell this page of a
    // change made before it mounted: read once on arrival.
    refetchOnMount: "always",
  });
  return { charge: query.data, isPollFailing: query.isRefetchError };
}

/**
 * After a change made here (cancel, refund), read the charge again at once; `fromGateway` reads it upstream
 * first (its refunds included), for when the mirror may lag behind what the gateway did.
 */
export function useRefreshPixCharge(txid: string) {
  const queryClient = useQueryClient();
  return async (options: { fromGateway?: boolean } = {}) => {
    if (options.fromGateway) {
      const fresh = await fetchPixCharge(txid, true).catch(() => null);
      if (fresh) {
        queryClient.setQueryData(pixChargeQueryKey(txid), fresh);
        return;
      }
    }
    await queryClient.invalidateQueries({ queryKey: pixChargeQueryKey(txid) });
  };
}
