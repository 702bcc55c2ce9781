#!/usr/bin/env node
/**
 * `npm start`: `callsight serve` from the build, building first only when the build is not
 * current. The build is current when every package's dist/ was written after the last change to
 * its sources (src/, package.json, tsup.config.ts, tsconfig.json). `npm install` builds already
 * (the `prepare` script), so a fresh clone starts at once. Arguments after `npm start --` go to
 * `callsight serve` (e.g. `npm start -- --no-worker`).
 */
import { join, dirname } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import "./build-if-stale.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

// the CLI reads process.argv (runtime, script, then its arguments): run `callsight serve` in this process
const cli = join(root, "packages/cli/bin/callsight.js")
process.argv = [process.argv[0], cli, "serve", ...process.argv.slice(2)]
await import(pathToFileURL(cli).href)
