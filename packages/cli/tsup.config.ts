import { defineConfig } from "tsup"

export default defineConfig([
  {
    // dist/: the command tree for embedding (index) and the executable that runs the server (main),
    // importing their dependencies from node_modules, as the server does (one copy of effect)
    entry: ["src/index.ts", "src/main.ts"],
    format: ["esm"],
    target: "node20",
    // Run, not imported by outside code: no declarations (type checking is `tsc -b`).
    dts: false,
    // no clean: a build only adds and overwrites files, never deletes one a running service may still load
    clean: false,
    sourcemap: true
  },
  {
    // bundle/: the same executable as one tree-shaken file, for every command that is a client of
    // the API (all but serve and worker; bin/callsight.js chooses). Loading effect, @effect/cli,
    // @effect/platform-node and the client through their barrels took most of a second; bundled,
    // only what the commands use is read. The server stays outside (serve and worker run from dist/);
    // the MCP tools and their SDK are split into chunks that only `mcp` loads.
    entry: { callsight: "src/main.ts" },
    outDir: "bundle",
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: false,
    // no clean: a build only adds and overwrites files, never deletes one a running service may still load
    clean: false,
    sourcemap: false,
    splitting: true,
    minify: true,
    // everything but the server's main entry (its mcp-tools entry is bundled)
    noExternal: [/^(?!@callsight\/server$)/],
    // the workspace packages from their TypeScript sources, as the tests and the type checker read them
    esbuildOptions: (options) => {
      options.conditions = ["source"]
    },
    // CommonJS dependencies bundled into ESM call require() for Node's built-ins
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
  }
])
