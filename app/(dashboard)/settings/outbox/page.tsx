import { MailIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { requirePermission } from "@/lib/auth/session";
import { listMail } from "@/lib/mail/outbox";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("outbox");
  return { title: t("title") };
}

const ZOutboxSearchParams = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1) });

export default async function OutboxPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePermission("users.manage");
  const { page } = ZOutboxSearchParams.parse(await searchParams);
  const [{ rows, pageCount }, t] = await Promise.all([listMail(page), getTranslations("outbox")]);

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {rows.length === 0 ? (
        <EmptyState icon={MailIcon} title={t("empty.title")} description={t("empty.description")} />
      ) : (
        <ul className="grid gap-2">
          {rows.map((mail) => (
            <li key={mail.id}>
              <Link
                href={`/settings/outbox/${mail.id}`}
                className="grid gap-1 rounded-md border p-3 hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 font-medium break-words">{mail.subject}</span>
                  <Badge tone={mail.status === "SENT" ? "success" : "danger"}>{t(`status.${mail.status}`)}</Badge>
                </span>
                <span className="text-sm break-all text-muted-foreground">
                  {t("to")}: {mail.to}
                </span>
                <span className="text-xs text-muted-foreground">
                  <DateTime value={mail.createdAt} /> · {t(`transport.${mail.transport}`)} · {mail.locale}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        className="mt-4"
        page={page}
        pageCount={pageCount}
        hrefForPage={(target) => `/settings/outbox?page=${target}`}
      />
    </>
  );
}
