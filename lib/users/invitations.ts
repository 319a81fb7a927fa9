import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { createLinkToken, hashLinkToken, type TLinkTokenState } from "@/lib/auth/link-token";
import { hashPassword, noPasswordHash } from "@/lib/auth/password";
import { serverEnv } from "@/lib/config/server-env";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { sendMail } from "@/lib/mail/send";
import { assertMayGrant, findRole } from "./roles";
import { ZCreateUserInput } from "./schemas";

export const invitationTtlMs = 72 * 60 * 60_000;

export type TInvitationView = {
  id: string;
  email: string;
  name: string;
  roleId: string;
  expiresAt: Date;
  createdAt: Date;
  isExpired: boolean;
};

const auditFields = (context: TChangeContext, invitationId: string) =>
  auditFieldsOf(context, "invitation", invitationId);

const inviteUrl = (token: string) => new URL(`/invite/${token}`, serverEnv.APP_URL).toString();

const notPending = () => new AppError("NOT_FOUND", "users.invitations.errors.notPending");

async function mailInvitation(invitation: { email: string; name: string }, token: string, context: TChangeContext) {
  const inviter = context.actor?.id
    ? await db.user.findUnique({ where: { id: context.actor.id }, select: { name: true, locale: true } })
    : null;
  await sendMail({
    to: invitation.email,
    template: "invitation",
    // The invitee has no language yet: the inviter's is the best guess.
    locale: inviter?.locale ?? "pt-BR",
    params: {
      name: invitation.name,
      inviterName: inviter?.name ?? serverEnv.MAIL_FROM,
      url: inviteUrl(token),
      validHours: invitationTtlMs / 3_600_000,
    },
  });
}

// A new invitation for an address replaces any pending one, so only the latest link works.
export async function inviteUser(
  input: { email: string; name: string; roleId: string },
  context: TChangeContext,
  now = new Date(),
): Promise<{ status: "invited"; email: string }> {
  const { email, name, roleId } = ZCreateUserInput.omit({ password: true }).parse(input);
  await assertMayGrant(db, context, await findRole(db, roleId));
  const { token, tokenHash } = createLinkToken();
  const invitation = await inTransaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
      throw new AppError("CONFLICT", "users.errors.emailTaken", { fieldErrors: { email: "emailTaken" } });
    }
    await tx.invitation.updateMany({ where: { email, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    const created = await tx.invitation.create({
      data: {
        email,
        name,
        roleId,
        tokenHash,
        expiresAt: new Date(now.getTime() + invitationTtlMs),
        invitedById: context.actor?.id ?? null,
      },
    });
    await recordAudit(
      { ...auditFields(context, created.id), action: "invitation.created", metadata: { email, roleId } },
      tx,
    );
    return created;
  });
  await mailInvitation(invitation, token, context);
  return { status: "invited", email };
}

// A fresh link and a fresh 72 hours; the old link stops working.
export async function resendInvitation(invitationId: string, context: TChangeContext, now = new Date()) {
  const { token, tokenHash } = createLinkToken();
  const invitation = await inTransaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: invitationId, acceptedAt: null, revokedAt: null },
      data: { tokenHash, expiresAt: new Date(now.getTime() + invitationTtlMs) },
    });
    if (count === 0) throw notPending();
    const updated = await tx.invitation.findUniqueOrThrow({ where: { id: invitationId } });
    await recordAudit(
      { ...auditFields(context, invitationId), action: "invitation.resent", metadata: { email: updated.email } },
      tx,
    );
    return updated;
  });
  await mailInvitation(invitation, token, context);
}

export async function revokeInvitation(invitationId: string, context: TChangeContext, now = new Date()) {
  await inTransaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: invitationId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) throw notPending();
    const { email } = await tx.invitation.findUniqueOrThrow({ where: { id: invitationId } });
    await recordAudit({ ...auditFields(context, invitationId), action: "invitation.revoked", metadata: { email } }, tx);
  });
}

export async function listPendingInvitations(now = new Date()): Promise<TInvitationView[]> {
  const rows = await db.invitation.findMany({
    where: { acceptedAt: null, revokedAt: null },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  return rows.map(({ id, email, name, roleId, expiresAt, createdAt }) => ({
    id,
    email,
    name,
    roleId,
    expiresAt,
    createdAt,
    isExpired: expiresAt <= now,
  }));
}

export async function getInvitationByToken(
  token: string,
  now = new Date(),
): Promise<{ state: TLinkTokenState; email?: string; name?: string }> {
  const row = await db.invitation.findUnique({ where: { tokenHash: hashLinkToken(token) } });
  if (!row || row.acceptedAt || row.revokedAt) return { state: "invalid" };
  if (row.expiresAt <= now) return { state: "expired" };
  return { state: "valid", email: row.email, name: row.name };
}

type TInvitationAcceptance =
  | { status: "accepted"; userId: string; email: string }
  | { status: "invitationInvalid" | "invitationEmailMismatch" };

// Single use under the invitation's lock: the user is created and the link is spent. Through single sign-on there is
// no password, and the provider's verified e-mail must be the invited one.
async function spendInvitation(
  tokenHash: string,
  credential: { passwordHash: string } | { ssoEmail: string },
  context: Omit<TChangeContext, "actor">,
  now: Date,
): Promise<TInvitationAcceptance> {
  try {
    return await inTransaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "Invitation" WHERE "tokenHash" = ${tokenHash} FOR UPDATE`;
      const invitation = locked && (await tx.invitation.findUnique({ where: { id: locked.id } }));
      if (!invitation || invitation.acceptedAt || invitation.revokedAt) {
        throw new AppError("NOT_FOUND", "auth.invite.invalid");
      }
      if (invitation.expiresAt <= now) throw new AppError("CONFLICT", "auth.invite.expired");
      const { email, name, roleId } = invitation;
      if ("ssoEmail" in credential && credential.ssoEmail !== email.toLowerCase()) {
        return { status: "invitationEmailMismatch" as const };
      }
      const passwordHash = "passwordHash" in credential ? credential.passwordHash : noPasswordHash;
      const user = await tx.user.create({ data: { email, name, roleId, passwordHash } });
      await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: now } });
      const actor = { id: user.id, email };
      const via = "ssoEmail" in credential ? { via: "sso" } : {};
      await recordAudit(
        {
          ...auditFields({ ...context, actor }, invitation.id),
          action: "invitation.accepted",
          metadata: { email, roleId, ...via },
        },
        tx,
      );
      await recordAudit(
        {
          ...auditFieldsOf({ ...context, actor }, "user", user.id),
          action: "user.created",
          metadata: { email, roleId, ...via },
        },
        tx,
      );
      return { status: "accepted" as const, userId: user.id, email };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", "users.errors.emailTaken");
    }
    throw error;
  }
}

export async function acceptInvitation(
  token: string,
  password: string,
  context: Omit<TChangeContext, "actor">,
  now = new Date(),
): Promise<{ email: string }> {
  const passwordHash = await hashPassword(password);
  const accepted = await spendInvitation(hashLinkToken(token), { passwordHash }, context, now);
  if (accepted.status !== "accepted") throw new AppError("NOT_FOUND", "auth.invite.invalid");
  return { email: accepted.email };
}

export async function acceptInvitationWithoutPassword(
  tokenHash: string,
  ssoEmail: string,
  context: Omit<TChangeContext, "actor">,
  now = new Date(),
): Promise<TInvitationAcceptance> {
  try {
    return await spendInvitation(tokenHash, { ssoEmail }, context, now);
  } catch (error) {
    if (error instanceof AppError) return { status: "invitationInvalid" };
    throw error;
  }
}
