import type { TRole } from "./session-user";

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
    sid?: string;
    sessionStartedAt?: number;
  }
}
