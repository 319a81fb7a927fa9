import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTableError } from "@/components/data-table/data-table-error";
import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import type { MirrorDrift } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { driftKinds, isHeldAsUnknown } from "@/lib/reconcile/drift";
import { listDriftPage, type TDriftPage, type TDriftSearchParams, ZDriftSearchParams } from "@/lib/reconcile/heal";
import { detailHrefByChangeKind } from "@/lib/resources/registry";

import { DriftActionButton } from "./_components/drift-action-button";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("health.drift");
  return { title: t("title") };
}

type TSearchParams = Promise<Record<string, string | string[] | undefined>>;

function valueText(value: unknown, field: string): string {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const text = (value as Record<string, unknown>)[field];
    return text === null || text === undefined ? "—" : String(text);
  }
  return "—";
}

function hrefOf(filters: TDriftSearchParams, page: number): string {
  const params = new URLSearchParams();
  if (filters.kind) params.set("kind", filters.kind);
  if (filters.state) params.set("state", filters.state);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/health/drift?${query}` : "/health/drift";
}

async function DriftItem({ drift, canHeal }: { drift: MirrorDrift; canHeal: boolean }) {
  const t = await getTranslations("health.drift");
  const kind = t(`kinds.${drift.resourceKind as (typeof driftKinds)[number]}`);
  const base = detailHrefByChangeKind[drift.resourceKind];
  const changes = drift.fields
    .map((field) => `${field} ${valueText(drift.mirrorValue, field)} → ${valueText(drift.gatewayValue, field)}`)
    .join(", ");
  return (
    <li className="grid min-w-0 gap-3 rounded-md border p-4" data-testid="drift-item">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <span className="text-xs text-muted-foreground">{kind}</span>
          {base && !drift.removedFromMirror ? (
            <Link
              href={`${base}/${encodeURIComponent(drift.resourceId)}`}
              className="break-all font-mono text-sm underline-offset-4 hover:underline"
            >
              {drift.resourceId}
            </Link>
          ) : (
            <span className="break-all font-mono text-sm">{drift.resourceId}</span>
          )}
        </div>
        {drift.removedFromMirror ? (
          <Badge tone="neutral">{t("remove.done")}</Badge>
        ) : drift.healedAt ? (
          <Badge tone="success">{t("states.healed")}</Badge>
        ) : (
          <Badge tone="warning">{t("openBadge")}</Badge>
        )}
      </div>
      <table className="w-full table-fixed text-sm">
        <thead>
          <tr className="text-left text-xs text-muted-foreground">
            <th scope="col" className="font-normal">
              {t("columns.fields")}
            </th>
            <th scope="col" className="font-normal">
              {t("columns.mirror")}
            </th>
            <th scope="col" className="font-normal">
              {t("columns.gateway")}
            </th>
          </tr>
        </thead>
        <tbody>
          {drift.fields.map((field) => (
            <tr key={field}>
              <th scope="row" className="break-all text-left font-mono text-xs font-normal">
                {field}
              </th>
              <td className="break-all">{valueText(drift.mirrorValue, field)}</td>
              <td className="break-all">{valueText(drift.gatewayValue, field)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="grid gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-muted-foreground">{t("columns.detected")}</dt>
          <dd>
            <DateTime value={drift.detectedAt.toISOString()} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t("columns.source")}</dt>
          <dd>{t(`sources.${drift.source as "webhook"}`)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t("columns.outcome")}</dt>
          <dd>
            {drift.healedAt ? (
              <>
                {drift.removedFromMirror
                  ? t("removedBy", { email: drift.healedByEmail ?? "" })
                  : drift.healedByEmail
                    ? t("healedBy", { email: drift.healedByEmail })
                    : t("healedAuto")}{" "}
                <DateTime value={drift.healedAt.toISOString()} />
              </>
            ) : (
              t("states.open")
            )}
          </dd>
        </div>
      </dl>
      {!drift.healedAt && canHeal ? (
        <div className="flex flex-wrap gap-2">
          <DriftActionButton
            id={drift.id}
            action="heal"
            description={t("heal.description", { changes })}
            label={`${kind} ${drift.resourceId}`}
          />
          {isHeldAsUnknown(drift.gatewayValue) ? (
            <DriftActionButton
              id={drift.id}
              action="remove"
              description={t("remove.description", { resource: `${kind} ${drift.resourceId}` })}
              label={`${kind} ${drift.resourceId}`}
            />
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

export default async function DriftPage({ searchParams }: { searchParams: TSearchParams }) {
  const user = await requirePermission("health.view");
  const t = await getTranslations("health.drift");
  const filters = ZDriftSearchParams.parse(await searchParams);
  let page: TDriftPage | null = null;
  try {
    page = await listDriftPage(filters);
  } catch (error) {
    log.error({ err: error }, "drift page: reading the drift failed");
  }
  const isFiltered = Boolean(filters.kind || filters.state);
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title={t("title")} description={t("description")} className="mb-0" />
      <Link href="/health" className="text-sm underline-offset-4 hover:underline">
        {t("back")}
      </Link>
      <form method="get" action="/health/drift" className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1 text-sm">
          <Label htmlFor="drift-kind">{t("filterKind")}</Label>
          <NativeSelect id="drift-kind" name="kind" defaultValue={filters.kind ?? ""}>
            <option value="">{t("allKinds")}</option>
            {driftKinds.map((kind) => (
              <option key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1 text-sm">
          <Label htmlFor="drift-state">{t("filterState")}</Label>
          <NativeSelect id="drift-state" name="state" defaultValue={filters.state ?? ""}>
            <option value="">{t("allStates")}</option>
            <option value="open">{t("states.open")}</option>
            <option value="healed">{t("states.healed")}</option>
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline">
          {t("apply")}
        </Button>
      </form>
      <Card className="min-w-0">
        <CardContent className="min-w-0 pt-6">
          {!page ? (
            <DataTableError />
          ) : page.rows.length === 0 ? (
            <p className="text-sm text-muted-foreground">{isFiltered ? t("emptyFiltered") : t("empty")}</p>
          ) : (
            <ul className="grid gap-3">
              {page.rows.map((drift) => (
                <DriftItem key={drift.id} drift={drift} canHeal={can(user, "jobs.run")} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {page && (page.page > 1 || page.hasNext) ? (
        <nav className="flex items-center justify-between gap-2" aria-label={t("pageLabel", { page: page.page })}>
          {page.page > 1 ? <Link href={hrefOf(filters, page.page - 1)}>{t("previous")}</Link> : <span />}
          {page.hasNext ? <Link href={hrefOf(filters, page.page + 1)}>{t("next")}</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
