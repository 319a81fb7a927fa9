-- Roles replace the ADMIN/STAFF enum: admins become Administrators (the first active one the Owner), staff become
-- Operations, which holds exactly what STAFF could do. The global refund approval threshold becomes every role's limit.
ALTER TABLE "User" ADD COLUMN "roleId" TEXT NOT NULL DEFAULT 'operations';

UPDATE "User" SET "roleId" = CASE WHEN "role" = 'ADMIN' THEN 'administrator' ELSE 'operations' END;

UPDATE "User" SET "roleId" = 'owner'
WHERE id = (SELECT id FROM "User" WHERE "role" = 'ADMIN' AND "isActive" ORDER BY "createdAt", id LIMIT 1);

ALTER TABLE "User" DROP COLUMN "role";

DROP TYPE "Role";

CREATE TABLE "Role" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "isBuiltIn" BOOLEAN NOT NULL DEFAULT false,
    "refundLimitCents" INTEGER NOT NULL DEFAULT 100000,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Role_pkey" PRIMARY KEY ("id")
);

INSERT INTO "Role" ("id", "isBuiltIn", "refundLimitCents", "updatedAt")
SELECT role_id, true,
       COALESCE((SELECT (value #>> '{}')::integer FROM "AppSetting" WHERE key = 'refundApprovalThresholdCents'), 100000),
       CURRENT_TIMESTAMP
FROM unnest(ARRAY['owner', 'administrator', 'developer', 'operations', 'support', 'analyst', 'viewer']) AS role_id;

CREATE UNIQUE INDEX "Role_name_key" ON "Role"("name");

CREATE INDEX "User_roleId_idx" ON "User"("roleId");

ALTER TABLE "User" ADD CONSTRAINT "User_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "Role"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TYPE "AdminChangeKind" ADD VALUE 'LOOSEN_ROLE_REFUND_LIMIT';

DELETE FROM "AppSetting" WHERE key = 'refundApprovalThresholdCents';
