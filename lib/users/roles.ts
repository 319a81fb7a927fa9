import "server-only";
import { randomUUID } from "node:crypto";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { administrationPermission, permissionsBeyond, type TPermission } from "@/lib/auth/permissions";
import { isBuiltInRole, ownerRoleId, permissionsOfRole } from "@/lib/auth/roles";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { type TRoleInput, ZRoleInput } from "./schemas";

type Tx = Prisma.TransactionClient;

export type TRoleView = {
  id: string;
  name: string | null;
  description: string | null;
  isBuiltIn: boolean;
  permissions: TPermission[];
  refundLimitCents: number;
  userCount: number;
};

const auditFields = (context: TChangeContext, roleId: string) => auditFieldsOf(context, "role", roleId);

function toView(row: {
  id: string;
  name: string | null;
  description: string | null;
  isBuiltIn: boolean;
  permissions: string[];
  refundLimitCents: number;
  _count?: { users: number };
}): TRoleView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isBuiltIn: row.isBuiltIn,
    permissions: permissionsOfRole(row.id, row.permissions),
    refundLimitCents: row.refundLimitCents,
    userCount: row._count?.users ?? 0,
  };
}

const roleOrder = ["owner", "administrator", "developer", "operations", "support", "analyst", "viewer"];

export async function listRoles(): Promise<TRoleView[]> {
  const rows = await db.role.findMany({ include: { _count: { select: { users: { where: { isActive: true } } } } } });
  const rank = (id: string) => (roleOrder.includes(id) ? roleOrder.indexOf(id) : roleOrder.length);
  return rows
    .map(toView)
    .sort((a, b) => rank(a.id) - rank(b.id) || (a.name ?? "").localeCompare(b.name ?? "", "pt-BR"));
}

export async function findRole(client: Tx | typeof db, roleId: string): Promise<TRoleView> {
  const row = await client.role.findUnique({ where: { id: roleId }, include: { _count: { select: { users: true } } } });
  if (!row) throw new AppError("NOT_FOUND", "roles.errors.notFound", { fieldErrors: { roleId: "roleNotFound" } });
  return toView(row);
}

export function isAdministrationRole(role: Pick<TRoleView, "permissions">): boolean {
  return role.permissions.includes(administrationPermission);
}

// What the person acting holds, read in the caller's transaction; no actor is the command line, which holds all.
async function grantOf(client: Tx | typeof db, context: TChangeContext) {
  if (!context.actor) return null;
  if (!context.actor.id) throw new AppError("FORBIDDEN", "errors.auth.permissionRequired");
  const actor = await client.user.findUnique({
    where: { id: context.actor.id },
    select: { roleId: true, role: { select: { permissions: true } } },
  });
  if (!actor) throw new AppError("FORBIDDEN", "errors.auth.permissionRequired");
  return { roleId: actor.roleId, permissions: permissionsOfRole(actor.roleId, actor.role.permissions) };
}

// A person gives out, or takes away, only what they hold; only an Owner touches the Owner role.
export async function assertMayGrant(
  client: Tx | typeof db,
  context: TChangeContext,
  role: Pick<TRoleView, "id" | "permissions">,
): Promise<void> {
  const grant = await grantOf(client, context);
  if (!grant) return;
  if (role.id === ownerRoleId && grant.roleId !== ownerRoleId) {
    throw new AppError("FORBIDDEN", "roles.errors.ownerOnly", { fieldErrors: { roleId: "ownerOnly" } });
  }
  const beyond = permissionsBeyond(grant, role.permissions);
  if (beyond.length > 0) {
    throw new AppError("FORBIDDEN", "roles.errors.beyondYours", {
      params: { count: beyond.length },
      fieldErrors: { permissions: "beyondYoursField" },
    });
  }
}

function conflictOnName(error: unknown): never {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    throw new AppError("CONFLICT", "roles.errors.nameTaken", { fieldErrors: { name: "nameTaken" } });
  }
  throw error;
}

export async function createRole(input: TRoleInput, context: TChangeContext): Promise<TRoleView> {
  const { name, description, permissions, refundLimitCents } = ZRoleInput.parse(input);
  const id = randomUUID();
  await assertMayGrant(db, context, { id, permissions });
  try {
    return await inTransaction(async (tx) => {
      const created = await tx.role.create({ data: { id, name, description, permissions, refundLimitCents } });
      await recordAudit(
        { ...auditFields(context, id), action: "role.created", metadata: { name, permissions, refundLimitCents } },
        tx,
      );
      return toView(created);
    });
  } catch (error) {
    return conflictOnName(error);
  }
}

// A built-in role keeps its name and permissions (they come with each release); only its refund limit is set here.
export async function updateRole(
  roleId: string,
  input: TRoleInput,
  context: TChangeContext,
  options: { allowLoosening: boolean },
): Promise<TRoleView> {
  const parsed = ZRoleInput.parse(input);
  try {
    return await inTransaction(async (tx) => {
      const before = await lockRole(tx, roleId);
      await assertMayGrant(tx, context, before);
      const next = before.isBuiltIn
        ? { ...before, refundLimitCents: parsed.refundLimitCents }
        : { ...before, ...parsed };
      await assertMayGrant(tx, context, next);
      // Making the people of a role admins at once would skip the second admin a promotion waits for.
      if (context.actor && !isAdministrationRole(before) && isAdministrationRole(next)) {
        if ((await tx.user.count({ where: { roleId, isActive: true } })) > 0) {
          throw new AppError("CONFLICT", "roles.errors.administrationInUse", {
            fieldErrors: { permissions: "administrationInUse" },
          });
        }
      }
      if (!options.allowLoosening && isLooseningLimit(before.refundLimitCents, next.refundLimitCents)) {
        throw new AppError("CONFLICT", "roles.errors.limitNeedsApproval");
      }
      const updated = await tx.role.update({
        where: { id: roleId },
        data: before.isBuiltIn
          ? { refundLimitCents: next.refundLimitCents }
          : {
              name: parsed.name,
              description: parsed.description,
              permissions: parsed.permissions,
              refundLimitCents: parsed.refundLimitCents,
            },
      });
      await recordAudit(
        {
          ...auditFields(context, roleId),
          action: "role.updated",
          metadata: {
            before: { name: before.name, permissions: before.permissions, refundLimitCents: before.refundLimitCents },
            after: { name: next.name, permissions: next.permissions, refundLimitCents: next.refundLimitCents },
          },
        },
        tx,
      );
      return toView(updated);
    });
  } catch (error) {
    return conflictOnName(error);
  }
}

// A larger limit, or none (0), lets more money out without a second person.
export function isLooseningLimit(currentCents: number, nextCents: number): boolean {
  if (currentCents === 0) return false;
  return nextCents === 0 || nextCents > currentCents;
}

async function lockRole(tx: Tx, roleId: string): Promise<TRoleView> {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Role" WHERE "id" = ${roleId} FOR UPDATE`;
  if (!locked) throw new AppError("NOT_FOUND", "roles.errors.notFound");
  return findRole(tx, roleId);
}

export async function deleteRole(roleId: string, context: TChangeContext): Promise<void> {
  if (isBuiltInRole(roleId)) throw new AppError("CONFLICT", "roles.errors.builtIn");
  await inTransaction(async (tx) => {
    const role = await lockRole(tx, roleId);
    await assertMayGrant(tx, context, role);
    const holders = await tx.user.count({ where: { roleId } });
    if (holders > 0) throw new AppError("CONFLICT", "roles.errors.inUse", { params: { count: holders } });
    await tx.role.delete({ where: { id: roleId } });
    await recordAudit(
      {
        ...auditFields(context, roleId),
        action: "role.deleted",
        metadata: { name: role.name, permissions: role.permissions },
      },
      tx,
    );
  });
}
