/**
 * A batch of calls not yet in the split, measured as it is before it joins (how each blind batch's
 * fresh figures are taken): every call of `eval/calls` whose id starts with the prefix given, run
 * and compared as `run.ts` does the test part, its table printed; `--details` adds each call's
 * misses and false findings. Reading the details makes the batch one tuned on: take its figures
 * first.
 *
 *   npm run eval:fresh -- dev21-            the table
 *   npm run eval:fresh -- dev21- --details  and each call's misses and false findings
 */
import { readdirSync } from "node:fs"
import { CALLS } from "./calls.js"
import { compare, runCall, summarize, table } from "./run.js"

const prefix = process.argv[2]
if (prefix === undefined || prefix.startsWith("--")) throw new Error("usage: npm run eval:fresh -- PREFIX [--details]")
const ids = readdirSync(CALLS)
  .filter((f) => f.startsWith(prefix) && f.endsWith(".annotation.json"))
  .map((f) => f.replace(".annotation.json", ""))
const results = ids.map((id) => compare(runCall(id), "test"))
console.log(table(`${prefix}*`, summarize(results)))
if (process.argv.includes("--details")) {
  for (const r of results) {
    console.log(`  ${r.id}`)
    for (const d of r.details) console.log(`    ${d}`)
  }
}
