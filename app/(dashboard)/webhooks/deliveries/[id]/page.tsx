import { ArrowLeftIcon, ShieldCheckIcon, ShieldXIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { DateTime } from "@/components/date-time";
import { DetailItem, DetailList } from "@/components/detail-list";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { getWebhookDeliveryDetail } from "@/lib/webhooks/history";

import { DeliveryOutcomeBadge } from "../../_components/delivery-outcome-badge";
import { ReplayDeliveryButton } from "../../_components/replay-delivery-button";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.delivery");
  return { title: t("title") };
}

// No loading.tsx above this page, so an unknown id answers a real 404.
export default async function WebhookDeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePermission("webhooks.view");
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const managesWebhooks = can(user, "webhooks.manage");
  // Signatures and raw bodies are for admins only (docs/webhooks.md).
  const [delivery, t] = await Promise.all([
    getWebhookDeliveryDetail(id, { canSeeRaw: managesWebhooks }),
    getTranslations("webhooks"),
  ]);
  if (!delivery) notFound();
  const { changes } = delivery;
  const eventName =
    delivery.eventMessageKey === null
      ? t("delivery.unknownEvent")
      : t.has(`events.${delivery.eventMessageKey}`)
        ? t(`events.${delivery.eventMessageKey}`)
        : delivery.event;

  return (
    // minmax(0, 1fr): a wide table scrolls inside its own box instead of widening the page.
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <Button asChild variant="ghost" size="sm" className="w-fit">
        <Link href="/webhooks/deliveries">
          <ArrowLeftIcon aria-hidden="true" />
          {t("delivery.back")}
        </Link>
      </Button>
      <PageHeader
        className="mb-0"
        title={eventName}
        description={t("delivery.description")}
        actions={managesWebhooks && delivery.canReplay ? <ReplayDeliveryButton deliveryId={delivery.id} /> : null}
      />

      <Card>
        <CardHeader>
          <CardTitle>{t("delivery.summary")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList className="gap-4 break-all sm:grid-cols-2 lg:grid-cols-3">
            <DetailItem label={t("delivery.fields.outcome")}>
              <DeliveryOutcomeBadge outcome={delivery.outcome} />
            </DetailItem>
            <DetailItem label={t("delivery.fields.receivedAt")}>
              <DateTime value={delivery.receivedAt} />
            </DetailItem>
            <DetailItem label={t("delivery.fields.sentAt")}>
              {delivery.sentAt ? <DateTime value={delivery.sentAt} /> : (delivery.timestampHeader ?? "—")}
            </DetailItem>
            <DetailItem label={t("delivery.fields.deliveryId")}>
              <span className="font-mono text-xs">{delivery.deliveryId ?? "—"}</span>
            </DetailItem>
            <DetailItem label={t("delivery.fields.eventKey")}>
              <span className="font-mono text-xs">{delivery.eventKey ?? "—"}</span>
            </DetailItem>
            <DetailItem label={t("delivery.fields.webhook")}>
              <span className="font-mono text-xs">{delivery.webhook?.url ?? t("delivery.unknownWebhook")}</span>
            </DetailItem>
            <DetailItem label={t("delivery.fields.attempts")}>{delivery.applyAttempts}</DetailItem>
            <DetailItem label={t("delivery.fields.appliedAt")}>
              {delivery.appliedAt ? <DateTime value={delivery.appliedAt} /> : "—"}
            </DetailItem>
            {delivery.nextAttemptAt ? (
              <DetailItem label={t("delivery.fields.nextAttemptAt")}>
                <DateTime value={delivery.nextAttemptAt} />
              </DetailItem>
            ) : null}
            {delivery.replayOfId ? (
              <DetailItem label={t("delivery.fields.replayOf")}>
                <Link
                  href={`/webhooks/deliveries/${delivery.replayOfId}`}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  {t("delivery.openOriginal")}
                </Link>
              </DetailItem>
            ) : null}
            {delivery.duplicateOfId ? (
              <DetailItem label={t("delivery.fields.duplicateOf")}>
                <Link
                  href={`/webhooks/deliveries/${delivery.duplicateOfId}`}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  {t("delivery.openFirst")}
                </Link>
              </DetailItem>
            ) : null}
            {delivery.resource ? (
              <DetailItem label={t(`delivery.resource.${delivery.resource.kind}`)}>
                <Link
                  href={delivery.resource.href}
                  className="font-mono text-xs text-primary underline-offset-4 hover:underline"
                >
                  {delivery.resource.label}
                </Link>
              </DetailItem>
            ) : null}
          </DetailList>
          {delivery.error ? (
            <p
              role="note"
              className="mt-4 rounded-md border border-destructive/30 bg-danger-soft px-3 py-2 text-sm text-destructive"
            >
              {t("delivery.error", { error: delivery.error })}
            </p>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("delivery.signature.title")}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm">
            {delivery.signatureValid ? (
              <ShieldCheckIcon className="size-4 text-success" aria-hidden="true" />
            ) : (
              <ShieldXIcon className="size-4 text-destructive" aria-hidden="true" />
            )}
            {t(delivery.signatureValid ? "delivery.signature.valid" : "delivery.signature.invalid")}
          </p>
          {managesWebhooks ? (
            <Button asChild variant="outline" size="sm">
              <Link href={`/webhooks/signature-check?delivery=${delivery.id}`}>{t("delivery.signature.openTool")}</Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("delivery.changes.title")}</CardTitle>
          {changes.length === 0 ? (
            <CardDescription>{t(`delivery.changes.${delivery.noChangesKey}`)}</CardDescription>
          ) : null}
        </CardHeader>
        {changes.length > 0 ? (
          <CardContent className="grid gap-4">
            {changes.map((change) => (
              <Table key={`${change.kind}:${change.id}`}>
                <caption className="mb-2 caption-top text-left text-sm font-medium">
                  {t(`delivery.resource.${change.kind}`)} <span className="font-mono text-xs">{change.id}</span>
                </caption>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("delivery.changes.field")}</TableHead>
                    <TableHead>{t("delivery.changes.before")}</TableHead>
                    <TableHead>{t("delivery.changes.after")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {change.fields.map(({ field, before, after }) => (
                    <TableRow key={field}>
                      <TableCell className="font-mono text-xs">{field}</TableCell>
                      <TableCell className="font-mono text-xs">{before}</TableCell>
                      <TableCell className="font-mono text-xs">{after}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            ))}
          </CardContent>
        ) : null}
      </Card>

      {delivery.headers === null || delivery.prettyBody === null ? (
        <p role="note" className="text-sm text-muted-foreground">
          {t("delivery.rawAdminsOnly")}
        </p>
      ) : (
        <>
          <Card>
            <CardHeader>
              <CardTitle>{t("delivery.headers")}</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-x-4 gap-y-1 font-mono text-xs sm:grid-cols-[max-content_1fr]">
                {delivery.headers.map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="text-muted-foreground">{name}</dt>
                    <dd className="break-all">{value}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>{t("delivery.body")}</CardTitle>
            </CardHeader>
            <CardContent>
              <section
                aria-label={t("delivery.body")}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
                tabIndex={0}
                className="max-h-[32rem] overflow-auto rounded-md bg-muted p-3"
              >
                <pre className="font-mono text-xs">{delivery.prettyBody}</pre>
              </section>
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
