-- Single sign-on with OpenID Connect: one row per trip to the identity provider, and the one-time tickets that
-- turn a verified identity into a session.
CREATE TABLE "SsoLoginAttempt" (
    "id" UUID NOT NULL,
    "stateHash" TEXT NOT NULL,
    "browserHash" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "codeVerifierCiphertext" TEXT NOT NULL,
    "invitationTokenHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),

    CONSTRAINT "SsoLoginAttempt_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "SsoSignInTicket" (
    "tokenHash" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),

    CONSTRAINT "SsoSignInTicket_pkey" PRIMARY KEY ("tokenHash")
);

CREATE UNIQUE INDEX "SsoLoginAttempt_stateHash_key" ON "SsoLoginAttempt"("stateHash");
CREATE INDEX "SsoLoginAttempt_expiresAt_idx" ON "SsoLoginAttempt"("expiresAt");
CREATE INDEX "SsoSignInTicket_expiresAt_idx" ON "SsoSignInTicket"("expiresAt");

ALTER TABLE "SsoSignInTicket" ADD CONSTRAINT "SsoSignInTicket_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
