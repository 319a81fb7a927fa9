"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";

import { useLiveRefresh } from "@/components/live/live-refresh";
import { useIsLive } from "@/components/live/use-live-changes";
import { paymentLinkStatusCodes, type TPaymentLinkView } from "@/lib/links/types";

// The server pushes changes (/api/events); polling is only the fallback: slow while the push
// stream is up, faster while it is down.
const livePollIntervalMs = 30_000;
const fallbackPollIntervalMs = 3_000;

const paymentLinkQueryKey = (uuid: string) => ["payment-link", uuid] as const;

async function fetchPaymentLink(uuid: string): Promise<TPaymentLinkView> {
  const response = await fetch(`/api/links/${encodeURIComponent(uuid)}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`GET /api/links failed with ${response.status}`);
  return (await response.json()) as TPaymentLinkView;
}

/**
 * The link as the server rendered it, then kept current: read again when the server reports a
 * change of it (a payment on the hosted page, a webhook), and polled while it can still be paid.
 */
export function usePaymentLink(initial: TPaymentLinkView) {
  const isLive = useIsLive();
  const pollIntervalMs = isLive ? livePollIntervalMs : fallbackPollIntervalMs;
  useLiveRefresh(
    { kinds: ["payment_link"], id: initial.linkPaymentUuid },
    { queryKey: paymentLinkQueryKey(initial.linkPaymentUuid) },
  );
  const query = useQuery({
    queryKey: paymentLinkQueryKey(initial.linkPaymentUuid),
    queryFn: () => fetchPaymentLink(initial.linkPaymentUuid),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.syncedAt),
    refetchInterval: (current) =>
      current.state.data?.statusCode === paymentLinkStatusCodes.CREATED ? pollIntervalMs : false,
    refetchIntervalInBackground: false,
    // As on the charge page: a change made before this page mounted was not pushed to it.
    refetchOnMount: "always",
  });
  return { link: query.data, isPollFailing: query.isRefetchError };
}

/** After a change made here (cancel), read the link again at once. */
export function useRefreshPaymentLink(uuid: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: paymentLinkQueryKey(uuid) });
}
