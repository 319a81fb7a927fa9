import { withAuth } from "@/lib/auth/with-auth";
import { subscribeChanges } from "@/lib/events/bus";
import { mayHearChange } from "@/lib/events/change";
import { createChangeStream } from "@/lib/events/sse";

// GET /api/events – Server-Sent Events telling the signed-in user's pages which resources changed.
export const GET = withAuth(
  async (request, { user }) => {
    const body = createChangeStream({
      subscribe: subscribeChanges,
      signal: request.signal,
      mayHear: (change) => mayHearChange(user, change),
    });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        // no-transform keeps compression from buffering the stream.
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  },
  { permission: null },
);
