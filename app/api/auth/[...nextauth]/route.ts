import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";
import { bodyLimits, withCappedBody } from "@/lib/http/read-body";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

// GET|POST /api/auth/* – next-auth's sign-in, sign-out, CSRF and session endpoints. next-auth reads the whole body
// before anything checks it, so it gets a copy read with the sign-in cap (413 past it).
async function handler(request: NextRequest, context: NextAuthContext) {
  const capped = await withCappedBody(request, bodyLimits.signIn);
  if (capped instanceof Response) return capped;
  return NextAuth(getAuthOptions())(capped, context);
}

export { handler as GET, handler as POST };
