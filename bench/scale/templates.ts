/**
 * The analyses the scale benchmark stores: real results of the engine (`combine`, the rules, as the
 * worker stores them) over a spread of the evaluation's calls (eval/calls: their ground-truth turns
 * and words, no audio decoded), the same way the views' tests make theirs
 * (packages/server/test/utils/AnalysedCalls.ts). The seed then varies ids, dates, closers and
 * scores around them. Made once and kept in the temporary directory (per method version and count;
 * SCALE_TEMPLATES_FRESH=1 makes them again): they take about half a second each.
 */
import { METHOD_VERSION } from "@callsight/analysis"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CALLS, truthOf } from "../../eval/calls.js"
import { analysedTruth } from "../../packages/server/test/utils/AnalysedCalls.js"

export interface Template {
  readonly name: string
  readonly result: unknown
}

/** `count` analyses of evaluation calls picked evenly across them (sorted by name: every kind of call). */
export const analysedTemplates = (count: number): ReadonlyArray<Template> => {
  const cache = join(tmpdir(), `callsight-scale-templates-${METHOD_VERSION}-${count}.json`)
  if (existsSync(cache) && process.env.SCALE_TEMPLATES_FRESH !== "1") return JSON.parse(readFileSync(cache, "utf8"))
  const ids = readdirSync(CALLS).filter((f) => f.endsWith(".truth.json")).map((f) => f.slice(0, -".truth.json".length)).sort()
  const step = Math.max(1, Math.floor(ids.length / count))
  const picked = ids.filter((_, i) => i % step === 0).slice(0, count)
  const templates = picked.map((name) => ({ name, result: analysedTruth(truthOf(name)) }))
  writeFileSync(cache, JSON.stringify(templates))
  return templates
}
