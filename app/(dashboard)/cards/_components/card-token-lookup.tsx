"use client";

import { SearchIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { ZLookUpCardTokenInput } from "@/lib/saved-cards/schemas";

import { lookUpCardTokenAction } from "../actions";
import { serializeCardTokenSearchParams } from "../search-params";

/** Looks a token or a card id up at the gateway (the mirror when it cannot answer), then lists just that card. */
export function CardTokenLookup() {
  const t = useTranslations("cards.lookup");
  const { fieldText, formText } = useActionErrorText("cards");
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = String(new FormData(event.currentTarget).get("query") ?? "");
    const checked = ZLookUpCardTokenInput.safeParse({ query });
    if (!checked.success) {
      setError(fieldText(checked.error.issues[0]?.message) ?? null);
      return;
    }
    startTransition(async () => {
      const result = await lookUpCardTokenAction(checked.data);
      if (!result.ok) {
        setError(formText(result.error));
        return;
      }
      setError(null);
      router.push(serializeCardTokenSearchParams("/cards", { token: result.data.token }));
    });
  }

  return (
    <search aria-label={t("label")} className="grid gap-1">
      <form onSubmit={handleSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
        <Field label={t("query")} error={error} className="min-w-0 flex-1">
          <Input name="query" type="search" autoComplete="off" spellCheck={false} />
        </Field>
        <Button type="submit" variant="outline" disabled={isPending}>
          {isPending ? <Spinner /> : <SearchIcon aria-hidden="true" />}
          {t("submit")}
        </Button>
      </form>
      <p className="text-sm text-muted-foreground">{t("description")}</p>
    </search>
  );
}
