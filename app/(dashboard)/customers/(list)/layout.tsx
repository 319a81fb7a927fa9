import { permissionLayout } from "@/lib/auth/permission-layout";

export default permissionLayout("payments.view");
