#!/usr/bin/env node
/**
 * The `callsight` executable, one command tree in three builds (docs/architecture.md, "The CLI's
 * builds"); this file chooses by the arguments:
 *
 * - `serve` and `worker` run the server: dist/main.js, which imports its dependencies from
 *   node_modules as the server does (one copy of effect for both);
 * - `mcp` and `openapi` load the whole declaration (and the MCP tools and SDK): bundle/callsight.js,
 *   the tree as tree-shaken ES modules, those parts in chunks that only they load;
 * - every other command is a client of the API: bundle/client.cjs, the tree without those parts as
 *   one CommonJS file, run with V8's compiled code of it kept between runs (compile-cache.js).
 *
 * Any argument spelled like one of those commands chooses its build: each build runs every command
 * it holds, so a file named `serve` is only slower to upload, never run by a build without it.
 */
import module from "node:module"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const chooses = (...commands) => args.some((arg) => commands.includes(arg))

// Node 22.1 and later keep V8's compiled code of ES modules between runs; a no-op where it does not exist
module.enableCompileCache?.()

if (chooses("serve", "worker")) await import("../dist/main.js")
else if (chooses("mcp", "openapi")) await import("../bundle/callsight.js")
else (await import("./compile-cache.js")).runCached(fileURLToPath(new URL("../bundle/client.cjs", import.meta.url)))
