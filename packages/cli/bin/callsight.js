#!/usr/bin/env node
/**
 * The `callsight` executable. `serve` and `worker` run the server: they start from dist/main.js,
 * which imports its dependencies from node_modules as the server does (one copy of effect for
 * both). Every other command is a client of the API and starts from bundle/callsight.js, the same
 * command tree as one tree-shaken file, which loads in a fraction of the time (docs/architecture.md,
 * "The CLI's two builds"). Any argument spelled `serve` or `worker` chooses dist/: dist/ runs every command,
 * so a file named `serve` is only slower to upload, never run by the wrong build.
 */
import module from "node:module"

// Node 22.1 and later keep V8's compiled code between runs (a third of a client command's start
// on Node 20, which has no such cache); a no-op where it does not exist
module.enableCompileCache?.()

const runsServer = process.argv.slice(2).some((arg) => arg === "serve" || arg === "worker")
await import(runsServer ? "../dist/main.js" : "../bundle/callsight.js")
