"use client";

import { PlusIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useRef, useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { type TFieldErrors, zodIssuesToFieldErrors } from "@/lib/actions/field-errors";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { ZAddCardInput } from "@/lib/saved-cards/schemas";
import { detectCardBrand } from "@/lib/shared/card";

import { addCardTokenAction } from "../actions";
import { serializeCardTokenSearchParams } from "../search-params";

// Brand detection needs the first digits only: the whole number lives in the input and nowhere else on the page.
const binLength = 6;

/** POST /cards: the number goes to the gateway once and is never kept; the list shows BIN and last four. */
export function AddCardDialog() {
  const t = useTranslations("cards.add");
  const tCards = useTranslations("cards");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("cards");
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [binPrefix, setBinPrefix] = useState("");
  const [fieldErrors, setFieldErrors] = useState<TFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<{ token: string | null } | null>(null);
  const [isPending, startTransition] = useTransition();

  const brand = binPrefix.length >= binLength ? detectCardBrand(binPrefix.padEnd(16, "0"))?.brand : undefined;

  function reset() {
    formRef.current?.reset();
    setBinPrefix("");
    setFieldErrors({});
    setFormError(null);
    setDuplicate(null);
  }

  function handleOpenChange(open: boolean) {
    if (isPending) return;
    setIsOpen(open);
    // Closing drops what was typed, the number included.
    if (!open) reset();
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      number: String(data.get("number") ?? ""),
      expiry: String(data.get("expiry") ?? ""),
      customerId: String(data.get("customerId") ?? ""),
    };
    const checked = ZAddCardInput.safeParse(input);
    setDuplicate(null);
    setFormError(null);
    if (!checked.success) {
      setFieldErrors(zodIssuesToFieldErrors(checked.error.issues));
      return;
    }
    setFieldErrors({});
    startTransition(async () => {
      const result = await addCardTokenAction(input);
      if (!result.ok) {
        setFieldErrors(result.error.fieldErrors ?? {});
        setFormError(formText(result.error));
        return;
      }
      if (result.data.status === "duplicate") {
        setDuplicate({ token: result.data.token });
        return;
      }
      const { token } = result.data;
      setIsOpen(false);
      reset();
      toast.success(t("created"));
      router.push(serializeCardTokenSearchParams("/cards", { token }));
    });
  }

  return (
    <Dialog open={isOpen} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" />
          {t("open")}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("title")}</DialogTitle>
          <DialogDescription>{t("description")}</DialogDescription>
        </DialogHeader>
        <form ref={formRef} onSubmit={handleSubmit} className="grid gap-4" noValidate autoComplete="off">
          {duplicate ? (
            <div role="alert" className="grid gap-1 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
              <p className="font-medium">{t("duplicateTitle")}</p>
              {duplicate.token ? (
                <Link
                  href={serializeCardTokenSearchParams("/cards", { token: duplicate.token })}
                  onClick={() => handleOpenChange(false)}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  {t("duplicateLink")}
                </Link>
              ) : (
                <p className="text-muted-foreground">{t("duplicateNotFound")}</p>
              )}
            </div>
          ) : null}
          <FormError>
            {formError && !Object.values(fieldErrors).some((key) => fieldText(key)) ? formError : null}
          </FormError>
          <Field
            label={t("number")}
            description={brand ? t("brandDetected", { brand: tCards(`brands.${brand}`) }) : t("numberHint")}
            error={fieldText(fieldErrors.number)}
            required
          >
            <Input
              name="number"
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              maxLength={23}
              onChange={(event) => setBinPrefix(event.currentTarget.value.replace(/\D/g, "").slice(0, binLength))}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t("expiry")} description={t("expiryHint")} error={fieldText(fieldErrors.expiry)} required>
              <Input
                name="expiry"
                inputMode="numeric"
                autoComplete="off"
                placeholder={t("expiryPlaceholder")}
                maxLength={5}
              />
            </Field>
            <Field label={t("customerId")} description={t("customerIdHint")} error={fieldText(fieldErrors.customerId)}>
              <Input name="customerId" autoComplete="off" maxLength={100} />
            </Field>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={isPending} onClick={() => handleOpenChange(false)}>
              {tCommon("cancel")}
            </Button>
            <Button type="submit" disabled={isPending}>
              {isPending ? <Spinner /> : null}
              {t("submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
