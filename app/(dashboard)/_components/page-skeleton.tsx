import { getTranslations } from "next-intl/server";

import { Skeleton } from "@/components/ui/skeleton";

// The skeleton of a dashboard page while its server work runs, used by each area's loading.tsx.
// There is deliberately no loading.tsx for the whole (dashboard) group or for admin pages: a
// loading boundary starts streaming with status 200 before the page runs, so forbidden() and
// notFound() in the page could no longer answer 403 or 404.
export async function PageSkeleton() {
  const t = await getTranslations("common");
  return (
    <div aria-busy="true" className="flex flex-col gap-6">
      <span role="status" className="sr-only">
        {t("loading")}
      </span>
      <div className="flex flex-col gap-2">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <div className="flex flex-col gap-2 rounded-md border p-4">
        <Skeleton className="h-5 w-full" />
        {["a", "b", "c", "d", "e", "f"].map((row) => (
          <Skeleton key={row} className="h-10 w-full" />
        ))}
      </div>
    </div>
  );
}
