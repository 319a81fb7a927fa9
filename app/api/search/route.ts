import { withAuth } from "@/lib/auth/with-auth";
import { AppError } from "@/lib/errors";
import { ZSearchQuery } from "@/lib/search/schemas";
import { searchEverything } from "@/lib/search/search";

// GET /api/search?q=… – the command palette: up to five hits per kind the user's role may see.
export const GET = withAuth(
  async (request, { user }) => {
    const parsed = ZSearchQuery.safeParse({ q: new URL(request.url).searchParams.get("q") ?? undefined });
    if (!parsed.success) {
      // The message is a key of `search.errors` (the palette shows it in the user's language).
      const message = parsed.error.issues[0]?.message ?? "searchQueryRequired";
      throw new AppError("VALIDATION_FAILED", "search.errors.searchQueryTooShort", { fieldErrors: { q: message } });
    }
    const result = await searchEverything(parsed.data.q, user);
    return Response.json(result, { headers: { "cache-control": "no-store" } });
  },
  { permission: null },
);
