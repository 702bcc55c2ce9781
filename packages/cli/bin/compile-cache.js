/**
 * Runs a CommonJS file with V8's compiled code of it kept between runs: what
 * `module.enableCompileCache()` does on Node 22 and later, for the one file of the client
 * commands (bundle/client.cjs) on Node 20, which has no such cache. Compiling the megabyte of the
 * bundle was about a third of a client command's start (`bench/cli.bench.ts`).
 *
 * The cache is one file per bundle content, Node version and architecture in the user's own cache
 * directory (`$XDG_CACHE_HOME/callsight`, else `~/.cache/callsight`, made private): never a
 * directory another user can write, since V8 runs what it holds. It is written once, at the end of
 * the first run (so it holds the functions that run compiled, not only the top level), by a rename,
 * so a process never reads a half-written file; V8 rejects one made by another V8 or with other
 * flags, and the run then compiles as usual and writes a new one. Any failure to read or write it
 * only costs the time it would have saved. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as it does
 * Node's own.
 *
 * (The `v8-compile-cache` package does this for every `require`, but takes V8's data right after
 * compiling, before anything ran: for a minified bundle, whose functions V8 compiles when first
 * called, that is little more than the top level.)
 */
import { createHash } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import Module, { createRequire } from "node:module"
import { homedir } from "node:os"
import { dirname, join } from "node:path"
import vm from "node:vm"

/** The directory of the cache, or undefined when it is turned off. */
export const cacheDirectory = () =>
  process.env.NODE_DISABLE_COMPILE_CACHE
    ? undefined
    : join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "callsight")

/** Runs `file` (CommonJS) as `require` would, with its compiled code from the cache when there is one. */
export const runCached = (file) => {
  const source = readFileSync(file, "utf8")
  const directory = cacheDirectory()
  const prefix = "v8-client-"
  const name = `${prefix}${createHash("sha256").update(source).digest("hex").slice(0, 32)}-${process.version}-${process.arch}`
  let cachedData
  if (directory !== undefined) {
    try {
      cachedData = readFileSync(join(directory, name))
    } catch {
      // no cache yet
    }
  }
  // no dynamic-import callback: a script run from the cache loses it (Node 20), so the bundle is
  // built without `import()` (tsup.config.ts)
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData })
  if (directory !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    process.once("exit", () => {
      try {
        mkdirSync(directory, { recursive: true, mode: 0o700 })
        const temporary = join(directory, `${name}.${process.pid}.tmp`)
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 })
        renameSync(temporary, join(directory, name))
        // the caches of earlier builds of the bundle for this Node
        const sameNode = `-${process.version}-${process.arch}`
        for (const old of readdirSync(directory)) {
          if (old.startsWith(prefix) && old.endsWith(sameNode) && old !== name) rmSync(join(directory, old), { force: true })
        }
      } catch {
        // an unwritable cache directory: the next run compiles again
      }
    })
  }
  const module = { exports: {}, filename: file, id: file, loaded: false }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
}
