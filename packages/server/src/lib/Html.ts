/**
 * What the service's HTML shares: text put into HTML, escaped as the evidence report escapes it (one
 * function, owned by the analysis package: its report renderer needs it and it depends on nothing of
 * the server), and the link of the service's icon, which every page names.
 */
export { escapeHtml } from "@callsight/analysis/light"

/** Where the service's icon is served (HomePage.ts). */
export const FAVICON_PATH = "/favicon.ico"

/** The `<link>` of the icon, in the `<head>` of every page of the service. */
export const FAVICON_LINK = `<link rel="icon" href="${FAVICON_PATH}" sizes="16x16 32x32">`
