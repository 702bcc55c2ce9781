/**
 * Trains the objection model of `packages/server/src/analysis/ObjectionModel.ts` on the train part
 * of `eval/split.json` (never the test part) and writes its weights to `objection-model.json`.
 *
 *   npm run train:objections
 *
 * One example per buyer turn of each train call (the script's text, split into sentences as the
 * analysis splits them, with the rep's turn just before it as context), labelled push-back when an
 * annotated objection lists the turn. Logistic
 * regression by stochastic gradient descent in a fixed order (deterministic: the same calls give
 * the same weights), L2 0.03, 10 passes, learning rate 0.1; weights under 0.001 in magnitude are
 * dropped. The first settings (L2 0.001, threshold 0.3) were chosen on the 14 `dev3-*` calls while
 * they were held out (written blind, never read for a rule), and the rep's turn as context and the
 * threshold checked on the 12 `dev4-*` calls while they were, before each batch joined the train
 * part (`dev5-*`, `dev6-*` too, after measuring them fresh). With `dev7-*` measured and joined, L2 and
 * the threshold were chosen on the train part alone: each of the seven blind batches left out in
 * turn, the model trained on the rest, the best F1 of the pooled batches: L2 0.03 and 0.5 (P 0.709 /
 * R 0.785), against L2 0.001 at 0.45 (0.664 / 0.805), 0.01 at 0.45 (0.679 / 0.819), 0.03 at 0.45
 * (0.688 / 0.802) and at 0.55 (0.722 / 0.771, the same F1: the higher recall kept), 0.1 at 0.5
 * (0.727 / 0.746). A stronger L2 keeps the model from leaning on one call's topic words. `dev8-*`,
 * measured fresh with these settings (P 0.79 / R 0.80), then joined with them unchanged.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { plain } from "../packages/server/src/analysis/Lexicon.js"
import { objectionFeatures } from "../packages/server/src/analysis/ObjectionModel.js"

const HERE = dirname(fileURLToPath(import.meta.url))
const OUT = join(HERE, "../packages/server/src/analysis/objection-model.json")
const L2 = 0.03
const EPOCHS = 10
const RATE = 0.1
const THRESHOLD = 0.5
const PRUNE = 0.001

const Split = Schema.Struct({ train: Schema.Array(Schema.String) })
const Script = Schema.Struct({ turns: Schema.Array(Schema.Struct({ who: Schema.String, text: Schema.String })) })
const Annotation = Schema.Struct({ objections: Schema.Array(Schema.Struct({ turns: Schema.Array(Schema.Number) })) })
const read = <A, I>(schema: Schema.Schema<A, I>, path: string): A => Schema.decodeUnknownSync(schema)(JSON.parse(readFileSync(path, "utf8")))

/** Sentences as the analysis cuts them: at ".", "?" and "!". */
const sentencesOf = (text: string) =>
  text.split(/(?<=[.?!]["')]*)\s+/).filter((s) => s.trim().length > 0).map((s) => ({ plain: plain(s), question: /\?["')]*$/.test(s.trim()) }))

/** The model the train calls give: deterministic, so a test checks the committed weights are these. */
export const trainObjectionModel = (ids: ReadonlyArray<string>) => {
  const examples = ids.flatMap((id) => {
    const script = read(Script, join(HERE, "calls", `${id}.script.json`))
    const pushback = new Set(read(Annotation, join(HERE, "calls", `${id}.annotation.json`)).objections.flatMap((o) => o.turns))
    return script.turns.flatMap((t, i) => {
      if (t.who === "rep") return []
      const before = script.turns[i - 1]?.who === "rep" ? sentencesOf(script.turns[i - 1]!.text) : []
      return [{ x: [...objectionFeatures(sentencesOf(t.text), before)], y: pushback.has(i) ? 1 : 0 }]
    })
  })
  const weights = new Map<string, number>()
  let bias = 0
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const { x, y } of examples) {
      let z = bias
      for (const f of x) z += weights.get(f) ?? 0
      const gradient = 1 / (1 + Math.exp(-z)) - y
      bias -= RATE * gradient
      for (const f of x) {
        const w = weights.get(f) ?? 0
        weights.set(f, w - RATE * (gradient + L2 * w))
      }
    }
  }
  const kept = [...weights].filter(([, w]) => Math.abs(w) >= PRUNE).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const round = (w: number) => Math.round(w * 1e5) / 1e5
  return {
    model: { bias: round(bias), threshold: THRESHOLD, weights: Object.fromEntries(kept.map(([f, w]) => [f, round(w)])) },
    turns: examples.length,
    pushback: examples.filter((e) => e.y === 1).length
  }
}

export const trainIds = (): ReadonlyArray<string> => read(Split, join(HERE, "split.json")).train

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { model, pushback, turns } = trainObjectionModel(trainIds())
  writeFileSync(OUT, `${JSON.stringify(model)}\n`)
  console.log(`${turns} buyer turns (${pushback} push-back), ${Object.keys(model.weights).length} weights → ${OUT}`)
}
