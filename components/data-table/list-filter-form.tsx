"use client";

import { useTranslations } from "next-intl";
import type { ParserMap, Values } from "nuqs";
import type { ReactNode } from "react";

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

/** A list's filter form with its Filter / Clear actions; the current sort and order survive a new filter. */
export function ListFilterForm<TParsers extends ParserMap>({
  parsers,
  action,
  label,
  columns,
  children,
}: TListFilterFormProps<TParsers>) {
  const t = useTranslations("common.filters");
  const { values, onSubmit, isPending, hasFilters, formKey } = useFilterForm(parsers);
  const { sort, order } = values as { sort?: unknown; order?: unknown };

  return (
    <FilterForm
      key={formKey}
      action={action}
      label={label}
      className={layout[columns].form}
      onSubmit={onSubmit}
      isPending={isPending}
    >
      {children(values)}
      <FilterFormActions
        applyLabel={t("apply")}
        clearLabel={t("clear")}
        clearHref={action}
        hasFilters={hasFilters}
        sort={typeof sort === "string" ? sort : undefined}
        order={typeof order === "string" ? order : undefined}
        isPending={isPending}
        className={layout[columns].actions}
      />
    </FilterForm>
  );
}
