/** The version of Callsight: what `/health` reports, `callsight --version` prints and MCP announces. */
export const VERSION = "0.1.0"
