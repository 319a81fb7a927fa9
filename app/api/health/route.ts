import { isDatabaseHealthy } from "@/lib/db/health";

export const dynamic = "force-dynamic";

// GET /api/health – liveness for load balancers and scripts; public, so it reveals nothing
// but whether the server and its database answer.
export async function GET() {
  const isHealthy = await isDatabaseHealthy();
  return Response.json(isHealthy ? { status: "ok", database: "ok" } : { status: "error", database: "unavailable" }, {
    status: isHealthy ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
