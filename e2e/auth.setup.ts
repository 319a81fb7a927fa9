import { expect, test as setup } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { storageStateFile } from "./targets";

// Each role signs in once per run, through the form; tests reuse the saved session with
// `test.use({ role: "staff" })` (fixtures.ts).
for (const role of ["admin", "staff"] as const) {
  setup(`[AUTH] ${role} signs in once for the run`, async ({ page, users, database }) => {
    const user = users[role];
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(user.email, user.password);
    // Password hashing is deliberately slow, and slower still on a busy machine.
    await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
    await page.context().storageState({ path: storageStateFile(database, role) });
  });
}
