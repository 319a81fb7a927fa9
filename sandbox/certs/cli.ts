import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { ensureCerts } from "./certs";

// `npm run certs` creates the dev CA, server and default client pairs; `-- --client NAME` issues more.
const { values } = parseArgs({
  options: { client: { type: "string", multiple: true }, dir: { type: "string" } },
});
const dir = values.dir ?? loadConfig().certsDir;
const created = await ensureCerts(dir, values.client ?? []);
console.log(created.length > 0 ? `Created ${created.join(", ")} in ${dir}` : `Certificates already present in ${dir}`);
