import type { ComponentProps, ReactNode } from "react";

import { DateTime } from "@/components/date-time";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { TDateInput } from "@/lib/format/date-time";
import { cn } from "@/lib/utils";

/** The label/value list of a detail page (a charge, a payment link); lay it out with `className`. */
export function DetailList({ className, ...props }: ComponentProps<"dl">) {
  return <dl className={cn("grid gap-3 text-sm", className)} {...props} />;
}

/** One label/value pair of a `DetailList`. */
export function DetailItem({
  label,
  children,
  className,
}: {
  label: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("min-w-0", className)}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium">{children}</dd>
    </div>
  );
}

/** A detail page's card of facts: a titled card around a `DetailList`. */
export function DetailsCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <DetailList>{children}</DetailList>
      </CardContent>
    </Card>
  );
}

type DetailDatesProps = {
  createdAtLabel: ReactNode;
  createdAt: TDateInput;
  expiresAtLabel: ReactNode;
  expiresAt: TDateInput;
};

/** When a charge or link was created and when it expires, side by side. */
export function DetailDates({ createdAtLabel, createdAt, expiresAtLabel, expiresAt }: DetailDatesProps) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <DetailItem label={createdAtLabel}>
        <DateTime value={createdAt} />
      </DetailItem>
      <DetailItem label={expiresAtLabel}>
        <DateTime value={expiresAt} />
      </DetailItem>
    </div>
  );
}
