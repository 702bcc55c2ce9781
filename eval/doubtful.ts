/**
 * How sure the rules are of their objections, measured where the model has not seen the words: the
 * figures behind `DOUBTFUL` (packages/analysis/src/models/ObjectionModel.ts), the confidence under
 * which a rule finding is put to the tenant's LLM as a second reader.
 *
 *   npx tsx --conditions=source eval/doubtful.ts
 *
 * For each blind batch of the train part (`dev-*`, `dev2-*`, …): the objection model trained
 * without it (`train-objections.ts`), the committed analysis run on its calls (`run.ts`), and each
 * objection the rules found scored by that model on its truth turn with the rep's turn before (the
 * finding's `confidence`, read out of fold) and counted right when an annotated objection lists the
 * turn. An approximation: the findings are the committed rules' (their model saw the batch), their
 * confidence is not. Prints the findings by confidence band and, for each threshold, how many are
 * under it and how many of those are false. The test part is never read. Not run by CI (about six
 * minutes on two cores).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { probabilityOf, turnFeatures } from "../packages/analysis/src/models/TurnModel.js"
import { readSplit, runCall, turnAt } from "./run.js"
import { objectionTurns, trainObjectionModel } from "./train-objections.js"
import { HERE, isMain, read, Script, sentencesOf } from "./turn-model.js"

/** Each rule finding of the blind batches: its out-of-fold confidence and whether it is annotated. */
export const outOfFold = (): Array<{ readonly confidence: number; readonly annotated: boolean }> => {
  const split = readSplit()
  const batches = [...new Set(split.train.flatMap((id) => /^dev\d*-/.exec(id)?.[0] ?? []))]
  const rows: Array<{ confidence: number; annotated: boolean }> = []
  for (const batch of batches) {
    const model = trainObjectionModel(split.train.filter((id) => !id.startsWith(batch))).model
    for (const id of split.train.filter((x) => x.startsWith(batch))) {
      const run = runCall(id)
      const script = read(Script, join(HERE, "calls", `${id}.script.json`))
      if (script.turns.length !== run.truth.turns.length) throw new Error(`${id}: the script and the truth have different turns`)
      const annotated = objectionTurns(JSON.parse(readFileSync(join(HERE, "calls", `${id}.annotation.json`), "utf8")))
      for (const f of run.content.findings.objections) {
        const t = turnAt(run.truth, f.objection.at)
        if (t === null) continue
        const previous = script.turns[t - 1]
        const before = previous !== undefined && previous.who === "rep" ? sentencesOf(previous.text) : []
        rows.push({ confidence: probabilityOf(turnFeatures(sentencesOf(script.turns[t]!.text), before), model), annotated: annotated.has(t) })
      }
    }
    process.stderr.write(`${batch} done\n`)
  }
  return rows
}

if (isMain(import.meta.url)) {
  const rows = outOfFold()
  const count = (r: ReadonlyArray<{ annotated: boolean }>) => `${r.length} (annotated ${r.filter((x) => x.annotated).length}, false ${r.filter((x) => !x.annotated).length})`
  console.log(`${rows.length} rule findings of the blind batches, each scored by the objection model trained without its batch`)
  const bands = [0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.01]
  for (let i = 0; i < bands.length - 1; i++) {
    console.log(`  [${bands[i]}, ${bands[i + 1]})  ${count(rows.filter((r) => r.confidence >= bands[i]! && r.confidence < bands[i + 1]!))}`)
  }
  for (const t of [0.1, 0.2, 0.3, 0.45, 0.5, 0.6]) {
    console.log(`  under ${t}: ${count(rows.filter((r) => r.confidence < t))}; at or above: ${count(rows.filter((r) => r.confidence >= t))}`)
  }
}
