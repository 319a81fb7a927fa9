import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { FilterForm } from "@/components/data-table/filter-form";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { FilterSelect } from "@/components/data-table/filter-select";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Pagination } from "@/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { auditActions } from "@/lib/audit/audit-actions";
import { type TAuditFilters, ZAuditFilters } from "@/lib/audit/audit-filters";
import { findAuditEntries } from "@/lib/audit/audit-log";
import { requireAdmin } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/format/date-time";
import type { Locale } from "@/lib/i18n/config";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

function hrefWith(filters: TAuditFilters, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, page: page > 1 ? page : undefined })) {
    if (value !== undefined) params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `/audit?${query}` : "/audit";
}

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireAdmin();
  const filters = ZAuditFilters.parse(await searchParams);
  const [result, t, locale] = await Promise.all([
    findAuditEntries(filters),
    getTranslations("audit"),
    getLocale() as Promise<Locale>,
  ]);
  const hasFilters = Object.entries(filters).some(([key, value]) => key !== "page" && value !== undefined);

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="text-sm text-muted-foreground">{t("description")}</p>
      </div>

      <FilterForm action="/audit" label={t("filters.label")} className="lg:grid-cols-3">
        <FilterSelect
          id="audit-action"
          name="action"
          label={t("filters.action")}
          anyLabel={t("filters.anyAction")}
          defaultValue={filters.action ?? ""}
          options={auditActions.map((action) => ({ value: action, label: t(`actions.${action}`) }))}
        />
        <Field label={t("filters.actor")}>
          <Input name="actor" type="search" defaultValue={filters.actor ?? ""} />
        </Field>
        <Field label={t("filters.resourceType")}>
          <Input name="resourceType" defaultValue={filters.resourceType ?? ""} />
        </Field>
        <Field label={t("filters.resourceId")}>
          <Input name="resourceId" defaultValue={filters.resourceId ?? ""} />
        </Field>
        <PeriodFilterFields
          fromLabel={t("filters.from")}
          toLabel={t("filters.to")}
          from={filters.from}
          to={filters.to}
        />
        <FilterFormActions
          applyLabel={t("filters.apply")}
          clearLabel={t("filters.clear")}
          clearHref="/audit"
          hasFilters={hasFilters}
          className="sm:col-span-2 lg:col-span-3"
        />
      </FilterForm>

      {result.entries.length === 0 ? (
        <EmptyState title={t("empty.title")} description={hasFilters ? t("empty.filtered") : t("empty.description")} />
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("columns.occurredAt")}</TableHead>
                <TableHead>{t("columns.actor")}</TableHead>
                <TableHead>{t("columns.action")}</TableHead>
                <TableHead>{t("columns.resource")}</TableHead>
                <TableHead>{t("columns.ip")}</TableHead>
                <TableHead>{t("columns.details")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.entries.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="whitespace-nowrap tabular-nums">
                    {formatDateTime(entry.occurredAt, locale)}
                  </TableCell>
                  <TableCell>{entry.actorEmail ?? t("system")}</TableCell>
                  <TableCell>
                    {t.has(`actions.${entry.action}`) ? t(`actions.${entry.action}`) : entry.action}
                  </TableCell>
                  <TableCell className="font-mono text-xs">
                    {entry.resourceType
                      ? `${entry.resourceType}${entry.resourceId ? `:${entry.resourceId}` : ""}`
                      : "—"}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{entry.ip ?? "—"}</TableCell>
                  <TableCell
                    className="max-w-xs truncate font-mono text-xs"
                    title={entry.metadata ? JSON.stringify(entry.metadata) : undefined}
                  >
                    {entry.metadata ? JSON.stringify(entry.metadata) : "—"}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <p className="text-sm text-muted-foreground">{t("total", { count: result.total })}</p>
          <Pagination page={result.page} pageCount={result.pageCount} hrefForPage={(page) => hrefWith(filters, page)} />
        </>
      )}
    </div>
  );
}
