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
      <p className="text-sm text-muted-foreground">
        {t("description")}{" "}
        <Link href="/health/drift" className="underline underline-offset-4">
          {t("viewAll")}
        </Link>
      </p>
      {drifts.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("empty")}</p>
      ) : (
        <>
          <ul className="grid gap-3 md:hidden">
            {drifts.map((drift) => (
              <li key={drift.id} className="grid min-w-0 gap-1 rounded-md border p-3 text-sm">
                <span className="break-all font-mono text-xs">{drift.resourceId}</span>
                <span className="break-all font-mono text-xs">
                  {t("columns.mirror")}: {valuesOf(drift.mirrorValue, drift.fields)}
                </span>
                <span className="break-all font-mono text-xs">
                  {t("columns.gateway")}: {valuesOf(drift.gatewayValue, drift.fields)}
                </span>
                <span className="text-xs text-muted-foreground">
                  <DateTime value={drift.detectedAt} /> · {t(`source.${drift.source}`)}
                </span>
              </li>
            ))}
          </ul>
          <div className="hidden md:block">
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
          </div>
        </>
      )}
    </section>
  );
}
