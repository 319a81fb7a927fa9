"use client";

import { BanIcon } from "lucide-react";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { revokePosApiKeyAction } from "../actions";
import { CreatePosKeyDialog } from "./create-pos-key-dialog";
import { SellerTokenDialog } from "./seller-token-dialog";

type PosKeyRowActionsProps = { keyId: string; name: string; prefix: string; isRevoked: boolean };

export function PosKeyRowActions({ keyId, name, prefix, isRevoked }: PosKeyRowActionsProps) {
  const t = useTranslations("pos.keys");
  const { formText } = useActionErrorText("pos");
  if (isRevoked) return null;
  return (
    <div className="flex flex-col items-end gap-2">
      <CreatePosKeyDialog rotate={{ keyId, name }} />
      <SellerTokenDialog keyId={keyId} />
      <ConfirmActionButton
        trigger={
          <Button variant="outline" size="sm">
            <BanIcon aria-hidden="true" />
            {t("revoke.open")}
          </Button>
        }
        title={t("revoke.title", { prefix })}
        description={t("revoke.description")}
        confirmLabel={t("revoke.confirm")}
        variant="destructive"
        action={() => revokePosApiKeyAction({ keyId })}
        successMessage={t("revoke.done")}
        errorText={formText}
      />
    </div>
  );
}
