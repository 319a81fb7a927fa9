"use client";

import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

// Shown once, right after creation or reset: the server keeps only the hash.
export function OneTimePassword({ email, password }: { email: string; password: string }) {
  const t = useTranslations("users.oneTimePassword");
  const tCommon = useTranslations("common");

  async function copy() {
    try {
      await navigator.clipboard.writeText(password);
      toast.success(tCommon("copied"));
    } catch {
      toast.error(tCommon("copyFailed"));
    }
  }

  return (
    <div className="grid gap-3">
      <p className="text-sm">{t("instructions", { email })}</p>
      <div className="flex items-end gap-2">
        <Field label={t("label")} className="flex-1">
          <Input readOnly value={password} className="font-mono" onFocus={(event) => event.currentTarget.select()} />
        </Field>
        <Button type="button" variant="outline" onClick={copy}>
          {tCommon("copy")}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">{t("warning")}</p>
    </div>
  );
}
