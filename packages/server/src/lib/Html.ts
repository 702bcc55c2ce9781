/**
 * Text put into HTML, escaped as the evidence report escapes it: one function, owned by the
 * analysis package (its report renderer needs it and it depends on nothing of the server).
 */
export { escapeHtml } from "@callsight/analysis"
