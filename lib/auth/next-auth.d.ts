// A module, so the declarations below augment next-auth instead of replacing it.
export {};

declare module "next-auth" {
  interface User {
    sessionVersion: number;
    isSso?: boolean;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    sessionVersion?: number;
    sid?: string;
    sessionStartedAt?: number;
    // "sso" when the identity provider authenticated the session: its own factors stand for ours.
    amr?: "sso";
  }
}
