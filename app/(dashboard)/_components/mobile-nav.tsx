"use client";

import { MenuIcon, XIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { overlayClassName } from "@/components/ui/dialog";
import type { TPermission } from "@/lib/auth/permissions";

import { AppBrand } from "./app-brand";
import { SidebarNav } from "./sidebar-nav";

/** Below the `lg` breakpoint the sidebar becomes a drawer behind a menu button. */
type MobileNavProps = {
  permissions: readonly TPermission[];
  /** Shown at the bottom of the drawer: the signed-in user, whom the narrow header has no room for. */
  footer?: ReactNode;
};

export function MobileNav({ permissions, footer }: MobileNavProps) {
  const t = useTranslations("common");
  const tNav = useTranslations("nav");
  const [isOpen, setIsOpen] = useState(false);

  return (
    <DialogPrimitive.Root open={isOpen} onOpenChange={setIsOpen}>
      <DialogPrimitive.Trigger asChild>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label={t("openMenu")}>
          <MenuIcon aria-hidden="true" />
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClassName} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 overflow-y-auto border-r bg-sidebar p-4 shadow-lg outline-none data-[state=open]:animate-in"
        >
          <div className="flex items-center justify-between">
            <DialogPrimitive.Title className="sr-only">{tNav("label")}</DialogPrimitive.Title>
            <AppBrand />
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon-sm" aria-label={t("closeMenu")}>
                <XIcon aria-hidden="true" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <SidebarNav permissions={permissions} onNavigate={() => setIsOpen(false)} />
          {footer ? <div className="mt-auto border-t pt-4">{footer}</div> : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
