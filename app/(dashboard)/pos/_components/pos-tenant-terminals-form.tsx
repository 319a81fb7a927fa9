"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { parsePosTerminalCodes } from "@/lib/pos/admin-schemas";

import { savePosTenantTerminalsAction } from "../actions";

type PosTenantTerminalsFormProps = { tenantId: string; initial: string[] };

// Codes named in one message; the rest are counted by the ellipsis.
const namedCodes = 10;

export function PosTenantTerminalsForm({ tenantId, initial }: PosTenantTerminalsFormProps) {
  const t = useTranslations("pos");
  const { fieldText, formText } = useActionErrorText("pos");
  const [text, setText] = useState(initial.join("\n"));
  const [error, setError] = useState<TActionError | null>(null);
  // The list the error's terminals.<index> paths point into.
  const [submitted, setSubmitted] = useState<string[]>([]);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const codes = parsePosTerminalCodes(text);
    startTransition(async () => {
      const result = await savePosTenantTerminalsAction({ tenantId, terminals: text });
      if (!result.ok) {
        setSubmitted(codes);
        return setError(result.error);
      }
      setError(null);
      setText(codes.join("\n"));
      toast.success(t("tenant.terminals.saved"));
    });
  }

  // A code's error (invalid, or another tenant's) names the codes; a list-wide one (too many) is a plain key.
  const terminalErrors: string[] = [];
  const codesByError = new Map<string, string[]>();
  for (const [path, key] of Object.entries(error?.fieldErrors ?? {})) {
    const index = /^terminals\.(\d+)$/.exec(path)?.[1];
    if (index !== undefined) codesByError.set(key, [...(codesByError.get(key) ?? []), submitted[Number(index)] ?? ""]);
    else if (path === "terminals") terminalErrors.push(fieldText(key) ?? formText({ ...error!, fieldErrors: {} }));
  }
  for (const [key, codes] of codesByError) {
    const named = codes.slice(0, namedCodes).join(", ") + (codes.length > namedCodes ? ", …" : "");
    terminalErrors.push(
      t.has(`errors.${key}`) ? t(`errors.${key}`, { codes: named }) : formText({ ...error!, fieldErrors: {} }),
    );
  }
  const count = parsePosTerminalCodes(text).length;

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error && terminalErrors.length === 0 ? formText(error) : null}</FormError>
      <Field
        id="tenant-terminals"
        label={t("tenant.terminals.label")}
        description={`${t("tenant.terminals.hint")} ${t("tenant.terminals.count", { count })}`}
        error={terminalErrors.length > 0 ? terminalErrors : null}
      >
        <Textarea
          name="terminals"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={6}
          maxLength={50_000}
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-sm"
        />
      </Field>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? <Spinner /> : null}
          {t("tenant.terminals.save")}
        </Button>
      </div>
    </form>
  );
}
