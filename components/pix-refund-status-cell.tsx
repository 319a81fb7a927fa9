import { ResourceStatusBadge } from "@/components/resource-status-badge";

type TPixRefundStatusCellProps = {
  statusCode: number;
  /** Upstream's description, shown for a code the spec does not list. */
  statusDescription?: string | null;
  statusReason?: string | null;
};

/** The badge with upstream's reason under it (a refusal says why), as the refund tables show it. */
export function PixRefundStatusCell({ statusCode, statusDescription, statusReason }: TPixRefundStatusCellProps) {
  return (
    <div className="flex flex-col gap-1">
      <ResourceStatusBadge resource="pixRefund" status={statusCode} label={statusDescription} />
      {statusReason ? <span className="text-xs text-muted-foreground">{statusReason}</span> : null}
    </div>
  );
}
