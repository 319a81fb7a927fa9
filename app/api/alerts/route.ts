import { countUnreadAlerts, listAlertIncidents } from "@/lib/alerts/incidents";
import { withAuth } from "@/lib/auth/with-auth";

// GET /api/alerts – the bell: unread count, open incidents and the latest resolved ones.
export const GET = withAuth(
  async (_request, { user }) => {
    const { open, resolved } = await listAlertIncidents({ resolvedLimit: 5 });
    return Response.json({ unread: await countUnreadAlerts(user.id), open, resolved });
  },
  { permission: "health.view" },
);
