/**
 * Do the weights of each call type (`CALL_TYPE_WEIGHTS` in `Dimensions.ts`) keep the scorecard as
 * close to the manual scores as the default weights? The evaluation's calls scored as `npm run
 * eval` scores them, then weighed for a type (`byCallType`), in four ways:
 *
 *   none       no type: the default weights (what `npm run eval` prints)
 *   truth      the annotation's type (pilot → demo, check_in → support_upsell, inbound → discovery)
 *   detected   the committed model's type (`callTypeOf`, as the analysis finds it; on the train
 *              part the model has seen the calls, so this is close to `truth` there)
 *   left-out   each blind batch's calls typed by the model trained without that batch; the other
 *              train calls and the test part by the committed model
 *
 *   npm run eval:call-types
 *
 * For each, per part: each dimension's MAE against the manual score (and how many manual scores a
 * dimension left unassessed), and the overall score's MAE against the manual overall taken with
 * the default weights (as `npm run eval` takes it) and with the same type's weights (a dimension
 * that does not apply left out of both).
 */
import { byCallType, type CallType, callTypeOf, DIMENSIONS, detectCallType, weightsFor } from "@callsight/analysis"
import { annotatedType, saidTurns, trainCallTypeModel } from "./train-call-types.js"
import { type CallRun, compare, readSplit, runCall, summarize } from "./run.js"
import { isMain, trainIds } from "./turn-model.js"

type Mode = "none" | "truth" | "detected" | "left-out"

const leftOutTypes = (): Map<string, CallType> => {
  const train = trainIds()
  const batches = [...new Set(train.flatMap((id) => /^dev\d*-/.exec(id)?.[0] ?? []))]
  const out = new Map<string, CallType>()
  for (const batch of batches) {
    const model = trainCallTypeModel(train.filter((id) => !id.startsWith(batch)))
    for (const id of train.filter((i) => i.startsWith(batch))) {
      const found = detectCallType(saidTurns(id), model)
      if (found !== null) out.set(id, found.type)
    }
  }
  return out
}

const main = () => {
  const split = readSplit()
  const runs = (["train", "test"] as const).flatMap((part) => split[part].map((id) => ({ part, run: runCall(id) })))
  const leftOut = leftOutTypes()
  const typeOf = (mode: Mode, run: CallRun): CallType | null => {
    if (mode === "none") return null
    if (mode === "truth") return annotatedType(run.id)
    const detected = callTypeOf(run.input, run.content, null)?.type ?? null
    return mode === "left-out" ? leftOut.get(run.id) ?? detected : detected
  }
  const lines: Array<string> = []
  for (const mode of ["none", "truth", "detected", "left-out"] as const) {
    for (const part of ["train", "test"] as const) {
      const chosen = runs.filter((r) => r.part === part).map(({ run }) => ({ run, type: typeOf(mode, run) }))
      const right = chosen.filter(({ run, type }) => type === annotatedType(run.id)).length
      const results = chosen.map(({ run, type }) => {
        const scored = byCallType(run.scored, type)
        const r = compare({ ...run, scored }, part)
        // the manual overall with the type's weights, over the dimensions the manual scores judge and that apply
        const w = weightsFor(type)
        let weighted = 0
        let weights = 0
        for (const d of DIMENSIONS) {
          const m = run.annotation.scores[d]
          if (m === null || !(w[d] > 0)) continue
          weighted += m * w[d]
          weights += w[d]
        }
        return { r, typed: { manual: weights > 0 ? Math.round(weighted / weights) : null, found: scored.scorecard.overall } }
      })
      const s = summarize(results.map((x) => x.r))
      const both = results.map((x) => x.typed).filter((x) => x.manual !== null && x.found !== null)
      const typedMae = both.reduce((n, x) => n + Math.abs(x.manual! - x.found!), 0) / Math.max(1, both.length)
      lines.push(
        `${mode.padEnd(9)} ${part.padEnd(5)} type right ${right}/${chosen.length}  ` +
          DIMENSIONS.map((d) => `${d} ${s.dimensions[d].mae?.toFixed(1) ?? "–"} (n ${s.dimensions[d].n}, unassessed ${s.dimensions[d].not_assessed})`).join("  ") +
          `  overall ${s.overall.mae?.toFixed(1) ?? "–"} vs default-weighted manual, ${typedMae.toFixed(1)} vs same-weighted manual (n ${both.length})`
      )
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`)
}

if (isMain(import.meta.url)) main()
