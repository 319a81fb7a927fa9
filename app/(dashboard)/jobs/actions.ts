"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/define-action";
import { requestJobRunNow } from "@/lib/jobs/admin";
import { ZRunJobNowInput } from "@/lib/jobs/schemas";

// The request is recorded, not run here: whichever runner (this server or a worker) polls next takes it.
export const runJobNowAction = defineAction(
  { permission: "jobs.run", schema: ZRunJobNowInput },
  async ({ name }, { context }) => {
    await requestJobRunNow(name, context);
    revalidatePath("/jobs");
  },
);
