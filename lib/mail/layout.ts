// The one layout every message shares: the template gives plain strings, this escapes each into the HTML part.

export type TMailContent = {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer: string;
};

export type TRenderedMail = { subject: string; text: string; html: string };

const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => htmlEscapes[character]!);
}

export function renderMailLayout(content: TMailContent, locale: string): TRenderedMail {
  const { subject, greeting, paragraphs, action, footer } = content;
  const text = [greeting, ...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), "--", footer].join(
    "\n\n",
  );
  const paragraph = (value: string) => `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#111827;color:#ffffff;` +
      `padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:12px;color:#6b7280;word-break:break-all">${escapeHtml(action.url)}</p>`
    : "";
  const html = [
    `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,sans-serif;color:#111827">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">`,
    paragraph(greeting),
    ...paragraphs.map(paragraph),
    button,
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">`,
    `<p style="margin:0;font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>`,
    `</div></body></html>`,
  ].join("");
  return { subject, text, html };
}
