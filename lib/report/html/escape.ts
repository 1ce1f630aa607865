// Every string in the findings comes from untrusted logs (pod names, field values,
// webhook names, user names). These are the only ways such text enters the HTML page.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text content and attribute values alike (attributes are always double-quoted by the
 * renderers). Lone surrogates are harmless to the parser, so they are left alone.
 */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/**
 * JSON to embed in `<script type="application/json">`. `<` is escaped so no `</script>`
 * or `<!--` in a value can end or confuse the script element; `&`, `>` and the two JS
 * line separators are escaped for good measure. The result is still valid JSON.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A link target, only for http(s): a `javascript:` URL is script run by a click. */
export function safeHref(url: string | undefined): string | null {
  if (!url) return null;
  return /^https?:\/\/[^\s]+$/i.test(url.trim()) ? url.trim() : null;
}

/**
 * Escaped text with <wbr> break opportunities after `.`, `/`, `,` and before `[`, so a
 * long field path or webhook name wraps between segments instead of mid-word.
 */
export function escapeBreakable(text: string): string {
  return escapeHtml(text)
    .replace(/([./,])(?=.)/g, '$1<wbr>')
    .replace(/(?<=.)\[/g, '<wbr>[');
}
