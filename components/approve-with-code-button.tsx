"use client";

import { useTranslations } from "next-intl";
import { type ComponentProps, useState } from "react";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TActionError, TActionResult } from "@/lib/actions/define-action";

type ApproveWithCodeButtonProps<T> = Omit<ComponentProps<typeof ConfirmActionButton<T>>, "action" | "children"> & {
  /** Runs with the code typed in the dialog; the server checks it (lib/auth/independent-approver.ts). */
  action: (code: string) => Promise<TActionResult<T>>;
};

/**
 * The approve confirmation of every second-person approval: it asks for a current code from the approver's
 * authenticator app, and says in the person's language why the server refused an approver.
 */
export function ApproveWithCodeButton<T>({ action, errorText, onSuccess, ...props }: ApproveWithCodeButtonProps<T>) {
  const t = useTranslations("approverCode");
  const [code, setCode] = useState("");

  function describeError(error: TActionError): string {
    const reason = error.fieldErrors?.approver ?? error.fieldErrors?.code;
    return reason && t.has(`errors.${reason}`) ? t(`errors.${reason}`) : errorText(error);
  }

  return (
    <ConfirmActionButton
      {...props}
      action={() => action(code)}
      onSuccess={(data) => {
        setCode("");
        onSuccess?.(data);
      }}
      errorText={describeError}
    >
      <Field label={t("label")} description={t("hint")} required>
        <Input
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
        />
      </Field>
    </ConfirmActionButton>
  );
}
