/**
 * Would more written calls close the gap? The objection model alone (`ObjectionModel.ts`, trained as
 * `train-objections.ts` trains it), read turn by turn: each blind batch of the train part left out in
 * turn, the model trained on a fraction of the other calls (every call kept at 1, else calls spread
 * evenly over the split's order), and its probabilities of the left-out batches' buyer turns pooled.
 * Printed for each fraction: the area under the ROC curve, the best F1 over every threshold, and
 * precision and recall at the committed threshold. The test part is never read.
 *
 *   npm run eval:curve
 *
 * Turn by turn, not item by item: no phrase pattern, no pain filter, no placing in a sentence, so
 * the figures sit below the whole analysis' (`npm run eval:leave-out`) and measure only how the
 * learned part grows with data. About half a minute; not run by CI (it tunes nothing, it prints).
 */
import { probabilityOf } from "@callsight/analysis"
import { objectionTurns, trainObjectionModel } from "./train-objections.js"
import { examplesOf, trainIds } from "./turn-model.js"

const FRACTIONS = [0.25, 0.5, 0.75, 1]

const ids = trainIds()
const batches = [...new Set(ids.flatMap((id) => /^dev\d*-/.exec(id)?.[0] ?? []))]

console.log(`objection model alone, ${batches.length} blind batches left out in turn, buyer turns pooled`)
for (const fraction of FRACTIONS) {
  let threshold = 0
  const scored = batches.flatMap((batch) => {
    const rest = ids.filter((id) => !id.startsWith(batch))
    const kept = rest.filter((_, i) => Math.floor((i + 1) * fraction) > Math.floor(i * fraction))
    const { model } = trainObjectionModel(kept)
    threshold = model.threshold
    return examplesOf(ids.filter((id) => id.startsWith(batch)), objectionTurns).map((e) => ({ p: probabilityOf(new Set(e.x), model), y: e.y }))
  })
  const positives = scored.filter((s) => s.y === 1).length
  // down the ranking: the ROC area as the share of (positive, negative) pairs ranked right, and the best F1
  let tp = 0
  let fp = 0
  let pairs = 0
  let best = 0
  for (const s of [...scored].sort((a, b) => b.p - a.p)) {
    if (s.y === 1) tp++
    else {
      fp++
      pairs += tp
    }
    best = Math.max(best, (2 * tp) / (tp + fp + positives))
  }
  const taken = scored.filter((s) => s.p > threshold)
  const right = taken.filter((s) => s.y === 1).length
  console.log(
    `  ${String(fraction).padEnd(4)} of the other calls: AUC ${(pairs / (tp * fp)).toFixed(3)}, best F1 ${best.toFixed(3)}, ` +
      `at ${threshold} P ${(right / Math.max(1, taken.length)).toFixed(3)} / R ${(right / positives).toFixed(3)}  (${scored.length} turns, ${positives} push-back)`
  )
}
