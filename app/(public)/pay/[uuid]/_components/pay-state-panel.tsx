import { getLocale, getTranslations } from "next-intl/server";

import { BanIcon, CircleAlertIcon, CircleCheckIcon, TimerOffIcon } from "@/components/server-icons";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import type { TPayPageState } from "@/lib/links/pay-page";

type PayStatePanelProps = {
  state: Exclude<TPayPageState, "payable">;
  /** Shown only to the verified payer: what was paid and how. */
  paid?: { amountCents: number; method: "card" | "pix" | null };
};

const icons = {
  paid: CircleCheckIcon,
  expired: TimerOffIcon,
  cancelled: BanIcon,
  unavailable: CircleAlertIcon,
} as const;

/** A link that cannot be paid (any more): its own page, never a form. */
export async function PayStatePanel({ state, paid }: PayStatePanelProps) {
  const t = await getTranslations("pay.state");
  const locale = resolveLocale(await getLocale());
  const Icon = icons[state];
  return (
    <section className="flex flex-col items-center gap-3 rounded-lg border bg-card px-5 py-10 text-center text-card-foreground">
      <div
        className={
          state === "paid"
            ? "flex size-12 items-center justify-center rounded-full bg-success-soft text-success"
            : "flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground"
        }
      >
        <Icon className="size-6" aria-hidden="true" />
      </div>
      <h1 className="text-lg font-semibold">{t(`${state}.title`)}</h1>
      {state === "paid" && paid ? (
        <p className="max-w-xs text-sm text-muted-foreground">
          {t("paid.detail", { amount: formatBRL(paid.amountCents, locale), method: paid.method ?? "other" })}
        </p>
      ) : (
        <p className="max-w-xs text-sm text-muted-foreground">{t(`${state}.description`)}</p>
      )}
    </section>
  );
}
