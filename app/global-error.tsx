"use client";

import { useEffect } from "react";

import "./root.css";

// Replaces the root layout when it fails, so no translations or providers are available here:
// the message is given in both languages, and the markup carries its own <html>.
export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <html lang="pt-BR">
      <body className="min-h-dvh">
        <title>Erro · Error</title>
        <main role="alert" className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-4 px-4 text-center">
          <h1 className="text-xl font-semibold">Algo deu errado</h1>
          <p lang="en" className="text-muted-foreground">
            Something went wrong
          </p>
          <p className="text-sm text-muted-foreground">
            Tente novamente; se o problema continuar, avise o suporte.{" "}
            <span lang="en">Try again; if it keeps happening, tell support.</span>
          </p>
          {error.digest ? <p className="font-mono text-xs text-muted-foreground">Ref: {error.digest}</p> : null}
          <div>
            <button
              type="button"
              onClick={() => retry()}
              className="inline-flex h-9 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
            >
              Tentar novamente · <span lang="en">Try again</span>
            </button>
          </div>
        </main>
      </body>
    </html>
  );
}
