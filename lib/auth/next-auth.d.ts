import type { TRole } from "./session-user";

// What our Credentials provider returns and what the session JWT carries (see options.ts).
declare module "next-auth" {
  interface User {
    role: TRole;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: TRole;
    sessionVersion?: number;
    // One browser session, for the server's idle clock (session-activity.ts).
    sid?: string;
    sessionStartedAt?: number;
  }
}
