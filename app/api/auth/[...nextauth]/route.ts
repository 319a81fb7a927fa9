import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

// GET|POST /api/auth/* – next-auth's sign-in, sign-out, CSRF and session endpoints.
function handler(request: Request, context: NextAuthContext) {
  return NextAuth(getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
