/**
 * Trains the call type model of `packages/analysis/src/models/CallTypeModel.ts` on the train part
 * of `eval/split.json` (never the test part) and writes its weights to `call-type-model.json`.
 *
 *   npm run train:call-types                 train on the train part, write the weights
 *   npm run train:call-types -- --evaluate   each blind batch left out in turn, and the test part
 *
 * One example per annotated call: the words of its script's turns, the rep's and the buyer side's
 * apart (`callTypeFeatures`), labelled with the annotation's `type`, mapped onto the product's six
 * types: `pilot` → `demo` (a proof of the product on the buyer's data), `check_in` →
 * `support_upsell` (an account call with an existing customer), `inbound` → `discovery` (a buyer
 * who came to us, qualified by questions). A softmax regression (`trainSoftmaxModel` in
 * `turn-model.ts`), L2 and passes in `SETTINGS`, chosen by the accuracy of the blind batches left
 * out in turn (`--evaluate`; the figures are in docs/method.md, "Call types").
 */
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { CALL_TYPES, type CallType, callTypeFeatures, type CallTypeModel, detectCallType } from "@callsight/analysis"
import { HERE, isMain, read, Script, trainIds, trainSoftmaxModel } from "./turn-model.js"

const OUT = join(dirname(fileURLToPath(import.meta.url)), "../packages/analysis/src/models/call-type-model.json")
export const SETTINGS = { l2: 0.01, epochs: 20 }

/** The annotation's types as the product's. */
export const TYPE_OF: Readonly<Record<string, CallType>> = {
  cold_call: "cold_call",
  discovery: "discovery",
  inbound: "discovery",
  demo: "demo",
  pilot: "demo",
  negotiation: "negotiation",
  renewal: "renewal",
  check_in: "support_upsell",
  support_upsell: "support_upsell"
}

const Annotation = Schema.Struct({ type: Schema.String })

/** The annotated type of a call, as the product's type. */
export const annotatedType = (id: string): CallType => {
  const { type } = read(Annotation, join(HERE, "calls", `${id}.annotation.json`))
  const mapped = TYPE_OF[type]
  if (mapped === undefined) throw new Error(`${id}: unknown call type ${type}`)
  return mapped
}

/** A call's turns as the model reads them. */
export const saidTurns = (id: string) =>
  read(Script, join(HERE, "calls", `${id}.script.json`)).turns.map((t) => ({ rep: t.who === "rep", text: t.text }))

export const callTypeExamples = (ids: ReadonlyArray<string>) =>
  ids.map((id) => ({ x: [...callTypeFeatures(saidTurns(id))], y: annotatedType(id) }))

/** The model the train calls give: deterministic, so a test checks the committed weights are these. */
export const trainCallTypeModel = (ids: ReadonlyArray<string>, settings = SETTINGS): CallTypeModel => {
  const model = trainSoftmaxModel(callTypeExamples(ids), CALL_TYPES, settings)
  // a weight rounded to -0 is written 0 in the JSON: the same here
  const zeroed = (w: ReadonlyArray<number>) => w.map((v) => v + 0)
  return {
    classes: model.classes,
    bias: zeroed(model.bias),
    weights: Object.fromEntries(Object.entries(model.weights).map(([f, w]) => [f, zeroed(w)]))
  }
}

const Split = Schema.Struct({ train: Schema.Array(Schema.String), test: Schema.Array(Schema.String) })

/** Accuracy of a model on calls, and the confusions. */
const measure = (model: CallTypeModel, ids: ReadonlyArray<string>) => {
  let right = 0
  const wrong: Array<string> = []
  for (const id of ids) {
    const truth = annotatedType(id)
    const found = detectCallType(saidTurns(id), model)?.type ?? null
    if (found === truth) right++
    else wrong.push(`${id}: ${truth} → ${found ?? "none"}`)
  }
  return { right, of: ids.length, wrong }
}

/** Each blind batch (`dev-*`, `dev2-*`, …) left out in turn, the model trained on the rest of the train part. */
export const leaveOut = (settings = SETTINGS) => {
  const train = trainIds()
  const batches = [...new Set(train.flatMap((id) => /^dev\d*-/.exec(id)?.[0] ?? []))]
  let right = 0
  let of = 0
  const wrong: Array<string> = []
  for (const batch of batches) {
    const model = trainCallTypeModel(train.filter((id) => !id.startsWith(batch)), settings)
    const m = measure(model, train.filter((id) => id.startsWith(batch)))
    right += m.right
    of += m.of
    wrong.push(...m.wrong)
  }
  return { batches: batches.length, right, of, wrong, ids: train.filter((id) => /^dev\d*-/.test(id)) }
}

if (isMain(import.meta.url)) {
  if (process.argv.includes("--evaluate")) {
    const grid = process.argv.includes("--grid")
      ? [0.001, 0.003, 0.01, 0.03].flatMap((l2) => [10, 20, 40].map((epochs) => ({ l2, epochs })))
      : [SETTINGS]
    for (const settings of grid) {
      const lo = leaveOut(settings)
      console.log(`L2 ${settings.l2}, ${settings.epochs} passes: ${lo.batches} blind batches left out in turn: ${lo.right} of ${lo.of} (${(lo.right / lo.of).toFixed(3)})`)
      if (grid.length === 1) {
        // each type's recall: of its calls, how many were typed so
        for (const type of CALL_TYPES) {
          const of = lo.ids.filter((id) => annotatedType(id) === type).length
          const missed = lo.wrong.filter((w) => w.includes(`: ${type} →`)).length
          console.log(`  ${type}: ${of - missed} of ${of}`)
        }
        for (const w of lo.wrong) console.log(`  ${w}`)
      }
    }
    const split = read(Split, join(HERE, "split.json"))
    const test = measure(trainCallTypeModel(trainIds()), split.test)
    console.log(`test part: ${test.right} of ${test.of}`)
    for (const w of test.wrong) console.log(`  ${w}`)
  } else {
    const ids = trainIds()
    const model = trainCallTypeModel(ids)
    writeFileSync(OUT, `${JSON.stringify(model)}\n`)
    console.log(`${ids.length} calls, ${Object.keys(model.weights).length} features → ${OUT}`)
  }
}
