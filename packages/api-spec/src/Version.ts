/**
 * Callsight has two versions, each shown under its own name (docs/architecture.md, "Versions"):
 *
 * - `VERSION`, the software's (every package's): `/health`'s `version`, `callsight --version`, the
 *   version MCP announces, the spans' service version, the webhooks' User-Agent.
 * - `API_VERSION`, the interface's, which the specification fixes (1.0.0): the OpenAPI document's
 *   `info.version` and `/health`'s `api_version`. It changes when the interface does, not with
 *   each release of the software.
 */
export const VERSION = "0.1.0"

/** The version of the interface (specification §9): the OpenAPI document's `info.version`. */
export const API_VERSION = "1.0.0"

/** Both, as the reference page (`/docs`) shows them. */
export const VERSIONS_LINE = `API ${API_VERSION} · Callsight ${VERSION}`
