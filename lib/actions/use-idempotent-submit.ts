import { useState, useTransition } from "react";
import type { z } from "zod";

import type { TActionError, TActionResult } from "./define-action";
import { type TFieldErrors as FieldErrors, zodIssuesToFieldErrors } from "./field-errors";

type IdempotentSubmitOptions<TSchema extends z.ZodType, TData> = {
  schema: TSchema;
  action: (input: z.input<TSchema>) => Promise<TActionResult<TData>>;
  onSuccess: (data: TData) => void;
};

// A double click or a retry after a timeout sends the same key; the server answers with what it already created.
export function useIdempotentSubmit<TSchema extends z.ZodType, TData>({
  schema,
  action,
  onSuccess,
}: IdempotentSubmitOptions<TSchema, TData>) {
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function submit(input: z.input<TSchema>) {
    if (isPending) return;
    const checked = schema.safeParse(input);
    if (!checked.success) {
      setFieldErrors(zodIssuesToFieldErrors(checked.error.issues));
      setFormError(null);
      return;
    }
    setFieldErrors({});
    startTransition(async () => {
      const result = await action(input);
      if (result.ok) {
        onSuccess(result.data);
        return;
      }
      setFieldErrors(result.error.fieldErrors ?? {});
      setFormError(result.error);
    });
  }

  return { idempotencyKey, fieldErrors, formError, isPending, submit };
}
