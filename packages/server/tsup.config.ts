import { defineConfig } from "tsup"

export default defineConfig({
  // mcp-tools: the MCP tools alone, for the CLI's stdio MCP (which runs them over the typed client)
  entry: { index: "src/index.ts", "mcp-tools": "src/mcp/Tools.ts" },
  format: ["esm"],
  target: "node20",
  // Run, not imported by outside code: no declarations (type checking is `tsc -b`).
  dts: false,
  // no clean: a build only adds and overwrites files, never deletes one a running service may still load
  clean: false,
  sourcemap: true
})
