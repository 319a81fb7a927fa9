import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { getRequestContext } from "@/lib/auth/request-context";
import { setSsoBrowserCookie, ssoRefusalUrl } from "@/lib/sso/browser-cookie";
import { startSsoSignIn } from "@/lib/sso/flow";

export const dynamic = "force-dynamic";

const ZStartParams = z.object({ invitation: z.string().min(1).max(100).optional().catch(undefined) });

// GET /api/auth/sso/start – public: records a single-use attempt and sends the browser to the identity provider.
export async function GET(request: NextRequest) {
  const { invitation } = ZStartParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const started = await startSsoSignIn({ invitationToken: invitation, ip: (await getRequestContext()).ip });
  if (started.status === "refused") return NextResponse.redirect(ssoRefusalUrl(started.reason), 303);
  return setSsoBrowserCookie(NextResponse.redirect(started.url, 303), started.browserSecret);
}
