/** Text put into HTML: the five characters that could end it, escaped. */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escape text for HTML element content and quoted attribute values. */
export const escapeHtml = (value: unknown): string => String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!)
