import { createTranslator } from "next-intl";

import type { TMessageKey, TMessageParams } from "@/lib/errors";

import { timeZone } from "./config";
import en from "./messages/en.json";

const english = createTranslator({ locale: "en", messages: en, timeZone });

export function englishErrorText(error: { messageKey: TMessageKey; params?: TMessageParams }): string {
  return english(error.messageKey, error.params);
}
