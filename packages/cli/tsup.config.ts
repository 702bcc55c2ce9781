import { builtinModules } from "node:module"
import { defineConfig } from "tsup"

/**
 * What bundle/client.cjs needs beyond a plain CommonJS build: no `import()` is left in it, since
 * V8 loses a script's dynamic-import callback when it runs from the code cache (Node 20:
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). A built-in module imported on first use (the client's
 * `node:fs`) is required instead; what only `serve`, `worker`, `mcp` and `openapi` load is a module
 * that fails, never reached, since bin/callsight.js runs those commands from the other builds.
 */
const OTHER_BUILDS = /^(\.\/Whole\.js|@callsight\/server(\/.*)?|@modelcontextprotocol\/.*)$/

const clientBundle = {
  name: "client-bundle",
  setup: (build: import("esbuild").PluginBuild) => {
    const builtin = new Set(builtinModules)
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined
      const bare = args.path.replace(/^node:/, "")
      if (builtin.has(bare)) return { path: bare, namespace: "required-builtin" }
      if (OTHER_BUILDS.test(args.path)) return { path: args.path, namespace: "other-build" }
      // anything else imported on first use is bundled (as a function esbuild calls on first use)
      return undefined
    })
    build.onLoad({ filter: /.*/, namespace: "required-builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`node:${args.path}`)})`,
      loader: "js"
    }))
    build.onLoad({ filter: /.*/, namespace: "other-build" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in bundle/client.cjs: bin/callsight.js runs the command that loads it from another build`)})`,
      loader: "js"
    }))
  }
}

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
    // bundle/callsight.js: the same executable as tree-shaken ES modules, for `mcp` and `openapi`
    // (bin/callsight.js chooses). Loading effect, @effect/cli, @effect/platform-node and the client
    // through their barrels took most of a second; bundled, only what the commands use is read. The
    // server stays outside (serve and worker run from dist/); the whole declaration, the MCP tools
    // and their SDK are split into chunks that only those two commands load.
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
  },
  {
    // bundle/client.cjs: the same tree once more as one CommonJS file, for the client commands
    // (all but serve, worker, mcp and openapi). One script, so that bin/callsight.js can keep V8's
    // compiled code of it between runs (bin/compile-cache.js), which Node 20 does not do for ES
    // modules: compiling the bundle was a third of a command's start. What only mcp and openapi
    // load (the whole declaration, the MCP tools and SDK) stays outside: bin/callsight.js runs those
    // two from the ES build above, so those imports are never reached here.
    entry: { client: "src/main.ts" },
    outDir: "bundle",
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    target: "node20",
    platform: "node",
    dts: false,
    clean: false,
    sourcemap: false,
    minify: true,
    // everything: what other builds run is left out by the plugin, which sees `node:` imports as written
    noExternal: [/.*/],
    removeNodeProtocol: false,
    esbuildPlugins: [clientBundle],
    esbuildOptions: (options) => {
      options.conditions = ["source"]
    }
  }
])
