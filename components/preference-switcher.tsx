"use client";

import { type ReactNode, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { TActionResult } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";

/** Saves a preference with its public action (lib/i18n/actions.ts, lib/theme/actions.ts); a failure is a toast. */
export function useSavePreference<T>(action: (value: T) => Promise<TActionResult<unknown>>) {
  const { formText } = useActionErrorText("common");
  const [isPending, startTransition] = useTransition();
  const save = (value: T) =>
    startTransition(async () => {
      const result = await action(value);
      if (!result.ok) toast.error(formText(result.error));
    });
  return { isPending, save };
}

type TPreferenceOption = { value: string; label: string; lang?: string };

/** The header's menus of one choice (language, theme): a ghost trigger, a label and a radio group. */
export function PreferenceSwitcher({
  label,
  title,
  trigger,
  size,
  disabled,
  value,
  options,
  onSelect,
}: {
  label: string;
  title?: string;
  trigger: ReactNode;
  size: "sm" | "icon";
  disabled?: boolean;
  value: string;
  options: readonly TPreferenceOption[];
  onSelect: (value: string) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size={size} aria-label={label} title={title} disabled={disabled}>
          {trigger}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{label}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={value} onValueChange={onSelect}>
          {options.map((option) => (
            <DropdownMenuRadioItem key={option.value} value={option.value} lang={option.lang}>
              {option.label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
