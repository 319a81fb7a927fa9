import { useEffect } from "react";

// Back/forward cache: a restored page would resend an old key with other data, and show a typed card again.
export function useReloadOnRestore(): void {
  useEffect(() => {
    const reloadOnRestore = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener("pageshow", reloadOnRestore);
    return () => window.removeEventListener("pageshow", reloadOnRestore);
  }, []);
}
