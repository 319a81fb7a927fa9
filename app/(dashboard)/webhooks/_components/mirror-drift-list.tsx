import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DateTime } from "@/components/date-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { MirrorDrift } from "@/lib/generated/prisma/client";

const hrefByKind: Record<string, string> = { pix_charge: "/pix", payment_link: "/links", card_payment: "/payments" };

function valuesOf(value: unknown, fields: string[]): string {
  const record = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return fields.map((field) => `${field}: ${JSON.stringify(record[field] ?? null)}`).join(", ");
}

/** The latest corrections of the mirror by an authoritative gateway read (admins, on the reconciliation panel). */
export async function MirrorDriftList({ drifts }: { drifts: MirrorDrift[] }) {
  const t = await getTranslations("reconciliation.drift");
  return (
    <section aria-labelledby="mirror-drift-title" className="grid gap-2">
      <h3 id="mirror-drift-title" className="text-sm font-medium">
        {t("title")}
      </h3>
      <p className="text-sm text-muted-foreground">{t("description")}</p>
      {drifts.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("empty")}</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t("columns.detectedAt")}</TableHead>
              <TableHead>{t("columns.resource")}</TableHead>
              <TableHead>{t("columns.mirror")}</TableHead>
              <TableHead>{t("columns.gateway")}</TableHead>
              <TableHead>{t("columns.source")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {drifts.map((drift) => {
              const base = hrefByKind[drift.resourceKind];
              return (
                <TableRow key={drift.id}>
                  <TableCell>
                    <DateTime value={drift.detectedAt} />
                  </TableCell>
                  <TableCell className="font-mono text-xs break-all">
                    {base ? (
                      <Link
                        href={`${base}/${encodeURIComponent(drift.resourceId)}`}
                        className="underline-offset-4 hover:underline"
                      >
                        {drift.resourceId}
                      </Link>
                    ) : (
                      drift.resourceId
                    )}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{valuesOf(drift.mirrorValue, drift.fields)}</TableCell>
                  <TableCell className="font-mono text-xs">{valuesOf(drift.gatewayValue, drift.fields)}</TableCell>
                  <TableCell>{t(`source.${drift.source}`)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
