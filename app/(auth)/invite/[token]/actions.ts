"use server";

import { definePublicAction } from "@/lib/actions/define-action";
import { acceptInvitation } from "@/lib/users/invitations";
import { ZSetPasswordWithLinkInput } from "@/lib/users/schemas";

// The link's token is the only credential: an unknown, spent, revoked or expired one changes nothing.
export const acceptInvitationAction = definePublicAction(
  { schema: ZSetPasswordWithLinkInput },
  async ({ token, password }, { context }) => {
    await acceptInvitation(token, password, context);
  },
);
