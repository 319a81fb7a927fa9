import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { requirePermission } from "@/lib/auth/session";
import { getMail } from "@/lib/mail/outbox";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("outbox");
  return { title: t("title") };
}

export default async function OutboxMailPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission("users.manage");
  const id = z.uuid().safeParse((await params).id);
  const mail = id.success ? await getMail(id.data) : null;
  if (!mail) notFound();
  const t = await getTranslations("outbox");

  return (
    <>
      <PageHeader
        title={mail.subject}
        description={`${t("to")}: ${mail.to}`}
        actions={
          <Link href="/settings/outbox" className="text-sm underline underline-offset-4">
            {t("back")}
          </Link>
        }
      />
      <div className="grid gap-6">
        <p className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground">
          <Badge tone={mail.status === "SENT" ? "success" : "danger"}>{t(`status.${mail.status}`)}</Badge>
          <DateTime value={mail.createdAt} />
          <span>{t(`transport.${mail.transport}`)}</span>
          <span>{mail.template}</span>
          <span>{mail.locale}</span>
        </p>
        {mail.error ? <p className="text-sm text-destructive break-words">{mail.error}</p> : null}
        {mail.body ? (
          <>
            <section className="grid gap-2" aria-labelledby="mail-text">
              <h2 id="mail-text" className="text-lg font-semibold">
                {t("text")}
              </h2>
              <pre className="rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap break-words">
                {mail.body.text}
              </pre>
            </section>
            <section className="grid gap-2" aria-labelledby="mail-html">
              <h2 id="mail-html" className="text-lg font-semibold">
                {t("html")}
              </h2>
              {/* Sandboxed with no permissions: the message's markup can neither run nor reach this page. */}
              <iframe
                title={t("html")}
                sandbox=""
                srcDoc={mail.body.html}
                className="h-[32rem] w-full rounded-md border bg-white"
              />
            </section>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{t("noBody")}</p>
        )}
      </div>
    </>
  );
}
