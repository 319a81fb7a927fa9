import { withAuth } from "@/lib/auth/with-auth";
import { listUsers } from "@/lib/users/users";

// GET /api/users – every user of the dashboard (admins only).
export const GET = withAuth(async () => Response.json({ users: await listUsers() }), { permission: "users.manage" });
