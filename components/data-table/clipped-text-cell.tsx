import { cn } from "@/lib/utils";

// Free text in a list (a description, a reference): one line, cut, in a desktop table with the whole text in the
// tooltip; wrapped in full in the phone card, where a cut would hide it for good (no hover on a phone).
export function ClippedTextCell({ text, className }: { text: string | null | undefined; className?: string }) {
  return (
    <span
      className={cn(
        "block max-w-56 truncate max-md:max-w-none max-md:whitespace-normal max-md:wrap-anywhere",
        className,
      )}
      title={text ?? undefined}
    >
      {text ?? "—"}
    </span>
  );
}
