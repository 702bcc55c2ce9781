// `node --import ./test/utils/RecordImports.mjs …`: writes every module URL the process loads to
// stderr, one `loaded <url>` line each (Node's module customization hooks), for tests that check
// what a command loads.
import { register } from "node:module"

register(
  `data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  process.stderr.write("loaded " + url + "\\n")
  return next(url, context)
}`)}`,
  import.meta.url
)
