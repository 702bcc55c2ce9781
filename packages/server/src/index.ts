export { AppConfig, InvalidConfig } from "./config.js"
export { Database } from "./db/Database.js"
export { makeHttpLayer } from "./HttpApp.js"
export { DatabaseLive, makeServeLive, makeServerLayer, ServeLive, WorkerLive } from "./main.js"
export { VERSION } from "./version.js"
// The MCP tools are the `@callsight/server/mcp-tools` entry (mcp/Tools.ts), not re-exported here:
// the server loads them, and the MCP SDK with them, on its first `POST /mcp` only.
