/**
 * A batch of calls not yet in the split, measured as it is before it joins (how each blind batch's
 * fresh figures are taken): every call of `eval/calls` whose id starts with the prefix given, run
 * and compared as `run.ts` does the test part, its table printed; `--details` adds each call's
 * misses and false findings. Reading the details makes the batch one tuned on: take its figures
 * first.
 *
 *   npm run eval:fresh -- dev21-            the table
 *   npm run eval:fresh -- dev21- --details  and each call's misses and false findings
 *   npm run eval:fresh -- dev21- --noise "none, 10% WER"   on its words as speech-to-text gives
 *                                           them (a condition of `asr-noise.ts`, seed 35)
 */
import { readdirSync } from "node:fs"
import { CALLS } from "./calls.js"
import { ASR_COMPONENTS, ASR_CONDITIONS, ASR_SEED, noisyCall } from "./asr-noise.js"
import { compare, runCall, summarize, table } from "./run.js"

const prefix = process.argv[2]
if (prefix === undefined || prefix.startsWith("--")) throw new Error("usage: npm run eval:fresh -- PREFIX [--details]")
const ids = readdirSync(CALLS)
  .filter((f) => f.startsWith(prefix) && f.endsWith(".annotation.json"))
  .map((f) => f.replace(".annotation.json", ""))
const noiseAt = process.argv.indexOf("--noise")
const conditions = [...ASR_CONDITIONS, ...ASR_COMPONENTS]
const noise = noiseAt < 0 ? null : conditions.find((c) => c.name === process.argv[noiseAt + 1])
if (noise === undefined) throw new Error(`--noise takes one of: ${conditions.map((c) => c.name).join("; ")}`)
const results = ids.map((id) => compare(noise === null ? runCall(id) : runCall(id, (truth) => noisyCall(truth, id, ASR_SEED, noise).input), "test"))
console.log(table(`${prefix}*${noise === null ? "" : ` (${noise.words})`}`, summarize(results)))
if (process.argv.includes("--details")) {
  for (const r of results) {
    console.log(`  ${r.id}`)
    for (const d of r.details) console.log(`    ${d}`)
  }
}
