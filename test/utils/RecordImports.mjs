// `node --import ./test/utils/RecordImports.mjs …`: writes every module the process loads to
// stderr, one `loaded <url>` line each, for tests that check what a command loads: ES modules
// (Node's module customization hooks), CommonJS files `require` loads, and a script file read to be
// compiled (bin/compile-cache.js reads the client bundle and compiles it itself).
import fs from "node:fs"
import Module, { register, syncBuiltinESMExports } from "node:module"
import { pathToFileURL } from "node:url"

register(
  `data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  process.stderr.write("loaded " + url + "\\n")
  return next(url, context)
}`)}`,
  import.meta.url
)

const record = (path) => process.stderr.write(`loaded ${pathToFileURL(path).href}\n`)

const load = Module._load
Module._load = function (request, parent, isMain) {
  const exports = load.apply(this, arguments)
  if (!Module.isBuiltin(request)) record(Module._resolveFilename(request, parent, isMain))
  return exports
}

const readFileSync = fs.readFileSync
fs.readFileSync = function (path, options) {
  if (typeof path === "string" && path.endsWith(".cjs")) record(path)
  return readFileSync.apply(this, arguments)
}
syncBuiltinESMExports()
