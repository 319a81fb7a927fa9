import { expect, test } from "./fixtures";

// Bodies are capped while they stream (docs/security.md, "Inputs"), against the running build: the route handler
// answers before next-auth reads the body. 64 KiB: over the 16 KiB cap, small enough to be sent whole before the
// answer, so the client sees the 413 rather than a closed connection.

test("[SECURITY] an oversized post to the sign-in callback is refused with 413 before next-auth reads it", async ({
  request,
}) => {
  const response = await request.post("/api/auth/callback/credentials", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: Buffer.alloc(64 * 1024, 0x61),
    maxRedirects: 0,
  });
  expect(response.status()).toBe(413);
  expect(await response.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
});
