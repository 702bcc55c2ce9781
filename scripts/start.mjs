#!/usr/bin/env node
/**
 * `npm start`: `callsight serve` from the build, building first only when the build is not
 * current. The build is current when every package's dist/ was written after the last change to
 * its sources (src/, package.json, tsup.config.ts, tsconfig.json). `npm install` builds already
 * (the `prepare` script), so a fresh clone starts at once. Arguments after `npm start --` go to
 * `callsight serve` (e.g. `npm start -- --no-worker`).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const PACKAGES = ["api-spec", "server", "client", "cli"]
const CONFIG_FILES = ["package.json", "tsup.config.ts", "tsconfig.json"]

/** The mtimes of every file under `dir` (recursively). */
const mtimes = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return mtimes(path)
    return entry.isFile() ? [statSync(path).mtimeMs] : []
  })

/** Why the package's build is not current, or null when it is. */
const staleness = (name) => {
  const dir = join(root, "packages", name)
  const dist = join(dir, "dist")
  const built = existsSync(dist) ? mtimes(dist) : []
  if (built.length === 0) return `packages/${name}/dist is missing`
  const sources = [
    ...mtimes(join(dir, "src")),
    ...CONFIG_FILES.map((f) => join(dir, f)).filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs)
  ]
  return Math.max(...sources) > Math.min(...built) ? `packages/${name} changed since its build` : null
}

const stale = PACKAGES.map(staleness).filter((reason) => reason !== null)
if (stale.length > 0) {
  console.error(`callsight: building first (${stale.join("; ")})`)
  // npm_execpath: the npm that runs this script (no shell needed, also on Windows)
  const npm = process.env.npm_execpath
  const build = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

// the CLI reads process.argv (runtime, script, then its arguments): run `callsight serve` in this process
const cli = join(root, "packages/cli/bin/callsight.js")
process.argv = [process.argv[0], cli, "serve", ...process.argv.slice(2)]
await import(pathToFileURL(cli).href)
