import { formatDateTime } from "../clock";
import { statement } from "../store/db";

type TAttemptRow = {
  delivery_id: string;
  webhook_id: string;
  event: string;
  attempt: number;
  attempted_at: number;
  url: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  outcome: string;
  next_attempt_at: number | null;
  state: string;
};

/** Every attempt of the client's deliveries, oldest first; deliveries queued but not yet tried are listed with attempt 0. */
export function listDeliveryAttempts(clientId: string, filters: { webhookId: string | null; event: string | null }) {
  const attempts = statement(`
    SELECT a.delivery_id, d.webhook_id, d.event, a.attempt, a.attempted_at, a.url, a.response_status, a.error,
           a.duration_ms, a.outcome, a.next_attempt_at, d.state
    FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE a.client_id = ? ORDER BY a.id`).all(clientId) as TAttemptRow[];
  const queued = statement(`
    SELECT id AS delivery_id, webhook_id, event, 0 AS attempt, NULL AS attempted_at, '' AS url, NULL AS response_status,
           NULL AS error, 0 AS duration_ms, 'queued' AS outcome, next_attempt_at, state
    FROM webhook_deliveries WHERE client_id = ? AND state = 'pending' AND attempts = 0 ORDER BY created_at`).all(
    clientId,
  ) as TAttemptRow[];
  return [...attempts, ...queued]
    .filter(
      (row) =>
        (filters.webhookId === null || row.webhook_id === filters.webhookId) &&
        (filters.event === null || row.event === filters.event),
    )
    .map((row) => ({
      deliveryId: row.delivery_id,
      webhookId: row.webhook_id,
      event: row.event,
      attempt: row.attempt,
      attemptedAt: row.attempted_at === null ? null : formatDateTime(row.attempted_at),
      url: row.url,
      responseStatus: row.response_status,
      error: row.error,
      durationMs: row.duration_ms,
      outcome: row.outcome,
      nextAttemptAt: row.next_attempt_at === null ? null : formatDateTime(row.next_attempt_at),
      deliveryState: row.state,
    }));
}
