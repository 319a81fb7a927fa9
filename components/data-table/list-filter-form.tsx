"use client";

import { ListFilterIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import type { ParserMap, Values } from "nuqs";
import { type ReactNode, useId, useState } from "react";

import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

import { FilterForm } from "./filter-form";
import { FilterFormActions } from "./filter-form-actions";
import { useFilterForm } from "./use-filter-form";

const layout = {
  3: { form: "lg:grid-cols-3", actions: "sm:col-span-2 lg:col-span-3" },
  4: { form: "lg:grid-cols-4", actions: "sm:col-span-2 lg:col-span-4" },
} as const;

type TListFilterFormProps<TParsers extends ParserMap> = {
  /** The list's nuqs parsers (its `search-params.ts`): the fields start from the URL and write back to it. */
  parsers: TParsers;
  /** The list's own path. */
  action: string;
  label: string;
  columns: keyof typeof layout;
  children: (values: Values<TParsers>) => ReactNode;
};

/**
 * A list's filter form with its Filter / Clear actions; the current sort and order survive a new filter.
 * On a phone the form folds behind one button that counts the filters in use, so the list comes first.
 */
export function ListFilterForm<TParsers extends ParserMap>({
  parsers,
  action,
  label,
  columns,
  children,
}: TListFilterFormProps<TParsers>) {
  const t = useTranslations("common.filters");
  const { values, onSubmit, isPending, filterCount, formKey } = useFilterForm(parsers);
  const { sort, order } = values as { sort?: unknown; order?: unknown };
  const formId = useId();
  const [isOpenOnPhone, setOpenOnPhone] = useState(false);

  return (
    <div className="flex flex-col gap-3">
      <Button
        type="button"
        variant="outline"
        className="self-start sm:hidden"
        aria-expanded={isOpenOnPhone}
        aria-controls={formId}
        onClick={() => setOpenOnPhone(!isOpenOnPhone)}
      >
        <ListFilterIcon aria-hidden="true" />
        {t("toggle", { count: filterCount })}
      </Button>
      <FilterForm
        key={formKey}
        id={formId}
        action={action}
        label={label}
        className={cn(layout[columns].form, !isOpenOnPhone && "max-sm:hidden")}
        onSubmit={(event) => {
          onSubmit(event);
          // On a phone the list is what the person asked for: it shows under the folded form.
          setOpenOnPhone(false);
        }}
        isPending={isPending}
      >
        {children(values)}
        <FilterFormActions
          applyLabel={t("apply")}
          clearLabel={t("clear")}
          clearHref={action}
          hasFilters={filterCount > 0}
          sort={typeof sort === "string" ? sort : undefined}
          order={typeof order === "string" ? order : undefined}
          isPending={isPending}
          className={layout[columns].actions}
        />
      </FilterForm>
    </div>
  );
}
