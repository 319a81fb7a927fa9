// A module, so the declarations below augment next-auth instead of replacing it.
export {};

declare module "next-auth" {
  interface User {
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    sessionVersion?: number;
    sid?: string;
    sessionStartedAt?: number;
  }
}
