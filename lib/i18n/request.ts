import { cookies } from "next/headers";
import { getRequestConfig } from "next-intl/server";

import { localeCookieName, resolveLocale, timeZone } from "./config";

// No locale in the URL: the cookie decides, so links and bookmarks are the same in every language.
export default getRequestConfig(async () => {
  const locale = resolveLocale((await cookies()).get(localeCookieName)?.value);
  return {
    locale,
    timeZone,
    messages: (await import(`./messages/${locale}.json`)).default,
  };
});
