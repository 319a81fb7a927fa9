import { useTranslations } from "next-intl";

import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

type DataTableSkeletonProps = {
  /** The real column headers, so the layout does not jump when the rows arrive. */
  headers: string[];
  rowCount?: number;
};

export function DataTableSkeleton({ headers, rowCount = 8 }: DataTableSkeletonProps) {
  const t = useTranslations("common");
  return (
    <div aria-busy="true">
      <span role="status" className="sr-only">
        {t("loading")}
      </span>
      <Table>
        <TableHeader>
          <TableRow>
            {headers.map((header) => (
              <TableHead key={header}>{header}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {Array.from({ length: rowCount }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity and never reorder
            <TableRow key={row}>
              {headers.map((header) => (
                <TableCell key={header}>
                  <Skeleton className="h-4 w-full max-w-40" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
