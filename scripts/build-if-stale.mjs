#!/usr/bin/env node
/**
 * Builds the packages (`npm run build`) only when the build is not current, for `npm start` and
 * `npm test`. The build is current when every package's dist/ was written after the last change to
 * its sources (src/, package.json, tsup.config.ts, tsconfig.json; the server's wiki too).
 * `npm install` builds already (the `prepare` script), so after a fresh clone neither command
 * builds again, and a test run never rewrites the build a running service uses unless a source
 * changed since (and then the builds only add and overwrite files: tsup's `clean` is off).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
/** Each package: what its build reads beyond src/ and its config files, and what it writes. */
const PACKAGES = {
  "api-spec": { reads: [], writes: ["dist"] },
  analysis: { reads: [], writes: ["dist"] },
  server: { reads: ["scripts"], writes: ["dist"] },
  client: { reads: [], writes: ["dist"] },
  cli: { reads: [], writes: ["dist", "bundle"] },
  web: { reads: ["index.html"], writes: ["dist"] }
}
const CONFIG_FILES = ["package.json", "tsup.config.ts", "tsconfig.json", "vite.config.ts"]

/** The mtimes of every file under `dir` (recursively), or of `dir` itself when it is a file; none when it does not exist. */
const mtimes = (dir) =>
  !existsSync(dir) ? [] : statSync(dir).isFile() ? [statSync(dir).mtimeMs]
    : readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return mtimes(path)
      return entry.isFile() ? [statSync(path).mtimeMs] : []
    })

/** Why the package's build is not current, or null when it is. */
const staleness = (name, { reads, writes }) => {
  const dir = join(root, "packages", name)
  const missing = writes.find((out) => mtimes(join(dir, out)).length === 0)
  if (missing !== undefined) return `packages/${name}/${missing} is missing`
  const built = writes.flatMap((out) => mtimes(join(dir, out)))
  const sources = [
    ...["src", ...reads].flatMap((d) => mtimes(join(dir, d))),
    ...CONFIG_FILES.map((f) => join(dir, f)).filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs)
  ]
  // the newest build file: with `clean` off, files of earlier builds may stay beside it
  return Math.max(...sources) > Math.max(...built) ? `packages/${name} changed since its build` : null
}

const stale = Object.entries(PACKAGES).map(([name, files]) => staleness(name, files)).filter((reason) => reason !== null)
if (stale.length > 0) {
  console.error(`callsight: building first (${stale.join("; ")})`)
  // npm_execpath: the npm that runs this script (no shell needed, also on Windows)
  const npm = process.env.npm_execpath
  const build = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
