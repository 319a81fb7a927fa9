"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";

function formatRemaining(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const mmss = `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

/**
 * Time left to pay, ticking every second. Rendered only after mount: the server's clock and the
 * browser's differ, and a countdown rendered on both would never hydrate to the same text.
 */
export function ExpiryCountdown({ expiresAt }: { expiresAt: string }) {
  const t = useTranslations("pix.detail");
  const [now, setNow] = useState<number | null>(null);

  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  if (now === null) return <span className="tabular-nums text-muted-foreground">--:--</span>;
  const remainingMs = Date.parse(expiresAt) - now;
  if (remainingMs <= 0) return <span className="font-medium text-destructive">{t("expiring")}</span>;
  return (
    // Announced only on request (role="timer" is not live by default), so it does not chatter every second.
    <span
      role="timer"
      aria-label={t("expiresIn", { time: formatRemaining(remainingMs) })}
      className="font-mono text-lg font-semibold tabular-nums"
    >
      {formatRemaining(remainingMs)}
    </span>
  );
}
