import type { ReactNode } from "react";

/** The narrow card the signed-out pages share (sign-in links, invitations, password resets). */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm rounded-lg border bg-card p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">{title}</h1>
        {description ? <p className="mb-6 text-sm text-muted-foreground">{description}</p> : null}
        {children}
      </div>
    </main>
  );
}
