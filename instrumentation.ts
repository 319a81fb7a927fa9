// Next.js calls register() once when a server starts: validate the environment there so a
// missing or malformed variable stops the server with a message naming it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { validateServerEnvOrExit } = await import("./lib/config/validate-env");
    validateServerEnvOrExit();
  }
}
