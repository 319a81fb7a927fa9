import "server-only";
import { db } from "@/lib/db/client";
import { sendMail } from "./send";
import type { TMailParams, TMailTemplateName } from "./templates";

type TUserMailTemplate = {
  [K in TMailTemplateName]: TMailParams<K> extends { name: string } ? K : never;
}[TMailTemplateName];

// To a user, in their language; a deactivated user gets nothing.
export async function mailUser<TName extends TUserMailTemplate>(
  userId: string,
  template: TName,
  params: Omit<TMailParams<TName>, "name">,
): Promise<void> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { email: true, name: true, locale: true, isActive: true },
  });
  if (!user?.isActive) return;
  await sendMail({
    to: user.email,
    template,
    locale: user.locale,
    params: { ...params, name: user.name } as TMailParams<TName>,
  });
}
