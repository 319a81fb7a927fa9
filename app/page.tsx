import { redirect } from "next/navigation";

// The dashboard opens on Pix charges; the dashboard layout sends signed-out visitors to /login.
export default function HomePage() {
  redirect("/pix");
}
