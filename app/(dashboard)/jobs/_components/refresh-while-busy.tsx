"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const refreshMs = 3_000;

/** Re-reads the page while a run is requested or going on, so its outcome shows without a reload. */
export function RefreshWhileBusy({ isBusy }: { isBusy: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!isBusy) return;
    const timer = setInterval(() => router.refresh(), refreshMs);
    return () => clearInterval(timer);
  }, [isBusy, router]);
  return null;
}
