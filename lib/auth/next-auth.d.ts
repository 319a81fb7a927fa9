import type { Role } from "./session-user";

// What our Credentials provider returns and what the session JWT carries (see options.ts).
declare module "next-auth" {
  interface User {
    role: Role;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: Role;
    sessionVersion?: number;
  }
}
