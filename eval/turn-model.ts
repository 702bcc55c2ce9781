/**
 * How the learned models of the content analysis are trained (`TurnModel.ts`; `ObjectionModel.ts`, `PainModel.ts`,
 * `ValueModel.ts`): one example per turn of one side in each train call (the script's text, split
 * into sentences as the analysis splits them, with the other side's turn just before it as
 * context), labelled by the turns an
 * annotation lists; a logistic regression trained by stochastic gradient descent in a fixed order
 * (deterministic: the same calls give the same weights), learning rate 0.1, the weights averaged
 * over every step of the second half of the passes (callsight-1.19); weights under 0.001 in
 * magnitude are dropped.
 *
 * Averaging: the last step's weights lean on the last calls of the split's order, the mean of the
 * later steps does not. Over the seventeen blind batches left out in turn (`npm run eval:leave-out`,
 * the three models trained so, the objection model's threshold swept), objections 0.4 P 0.757 /
 * R 0.781, **0.45 0.771 / 0.765**, 0.5 0.783 / 0.748 against the last step's 0.45 0.748 / 0.789,
 * 0.5 0.758 / 0.768, 0.55 0.770 / 0.751: about 0.01 more of one at the same other; pains 0.621 /
 * 0.751 against 0.633 / 0.724, value claims 0.663 / 0.763 against 0.667 / 0.758.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { plain, turnFeatures } from "@callsight/analysis"

export const HERE = dirname(fileURLToPath(import.meta.url))
const RATE = 0.1
const PRUNE = 0.001
/** A weight as the model's JSON keeps it: five decimals, and no -0 (JSON writes it 0, so a test comparing the trained model with the committed one would differ). */
const round = (w: number) => Math.round(w * 1e5) / 1e5 + 0

const Split = Schema.Struct({ train: Schema.Array(Schema.String) })
export const Script = Schema.Struct({ turns: Schema.Array(Schema.Struct({ who: Schema.String, text: Schema.String })) })
export const read = <A, I>(schema: Schema.Schema<A, I>, path: string): A => Schema.decodeUnknownSync(schema)(JSON.parse(readFileSync(path, "utf8")))

/** Sentences as the analysis cuts them: at ".", "?" and "!". */
export const sentencesOf = (text: string) =>
  text.split(/(?<=[.?!]["')]*)\s+/).filter((s) => s.trim().length > 0).map((s) => ({ plain: plain(s), question: /\?["')]*$/.test(s.trim()) }))

export interface Settings {
  readonly l2: number
  readonly epochs: number
  readonly threshold: number
  /** Whose turns are the examples (the other side's turn before is the context): the buyer's unless said. */
  readonly side?: "buyer" | "rep"
}

/** One example per turn of `side` (the buyer's unless said) in each call: its features, and 1 where `labelled` lists the turn. */
export const examplesOf = (ids: ReadonlyArray<string>, labelled: (annotation: unknown) => ReadonlySet<number>, side?: "buyer" | "rep") =>
  ids.flatMap((id) => {
    const script = read(Script, join(HERE, "calls", `${id}.script.json`))
    const positive = labelled(JSON.parse(readFileSync(join(HERE, "calls", `${id}.annotation.json`), "utf8")))
    const isSide = (who: string | undefined) => who !== undefined && (who === "rep") === (side === "rep")
    return script.turns.flatMap((t, i) => {
      if (!isSide(t.who)) return []
      const previous = script.turns[i - 1]
      const before = previous !== undefined && !isSide(previous.who) ? sentencesOf(previous.text) : []
      return [{ x: [...turnFeatures(sentencesOf(t.text), before)], y: positive.has(i) ? 1 : 0 }]
    })
  })

/**
 * The model the train calls give, with `labelled` reading an annotation (the parsed JSON) into the
 * turns that are positive examples.
 */
export const trainTurnModel = (ids: ReadonlyArray<string>, labelled: (annotation: unknown) => ReadonlySet<number>, settings: Settings) => {
  const examples = examplesOf(ids, labelled, settings.side)
  return {
    model: trainLogistic(examples, settings),
    turns: examples.length,
    positive: examples.filter((e) => e.y === 1).length
  }
}

/**
 * A logistic regression over sets of feature names (`TurnModel`'s form), trained by stochastic
 * gradient descent in the examples' order (deterministic), rate 0.1, L2 on the features of each
 * step, the weights averaged over every step of the second half of the passes; weights under 0.001
 * in magnitude dropped. The turn models and the sentence-end model (`train-sentence-ends.ts`) are
 * trained so.
 */
export const trainLogistic = (
  examples: ReadonlyArray<{ readonly x: ReadonlyArray<string>; readonly y: number }>,
  settings: { readonly l2: number; readonly epochs: number; readonly threshold: number; readonly prune?: number }
) => {
  const weights = new Map<string, number>()
  let bias = 0
  // the mean over every step of the second half of the passes (averaged SGD), each weight's sum
  // kept lazily: its value times the steps it held it, added when it changes and at the end
  const averageFrom = Math.floor(settings.epochs / 2)
  const sums = new Map<string, { sum: number; since: number }>()
  let biasSum = 0
  let steps = 0
  const hold = (f: string) => {
    const s = sums.get(f) ?? { sum: 0, since: 0 }
    sums.set(f, { sum: s.sum + (weights.get(f) ?? 0) * (steps - s.since), since: steps })
  }
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    const averaging = epoch >= averageFrom
    for (const { x, y } of examples) {
      let z = bias
      for (const f of x) z += weights.get(f) ?? 0
      const gradient = 1 / (1 + Math.exp(-z)) - y
      bias -= RATE * gradient
      for (const f of x) {
        if (averaging) hold(f)
        const w = weights.get(f) ?? 0
        weights.set(f, w - RATE * (gradient + settings.l2 * w))
      }
      if (averaging) {
        steps++
        biasSum += bias
      }
    }
  }
  for (const f of weights.keys()) hold(f)
  for (const [f, s] of sums) weights.set(f, s.sum / steps)
  bias = biasSum / steps
  const kept = [...weights].filter(([, w]) => Math.abs(w) >= (settings.prune ?? PRUNE)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return { bias: round(bias), threshold: settings.threshold, weights: Object.fromEntries(kept.map(([f, w]) => [f, round(w)])) }
}

/**
 * A softmax regression over the same features, for a turn's class among `classes` (the objection
 * kind model, `KindModel.ts`): trained as `trainTurnModel` trains (stochastic gradient descent in a
 * fixed order, rate 0.1, L2, the weights averaged over the second half of the passes), a feature's
 * weights dropped when none reaches 0.001 in magnitude.
 */
export const trainSoftmaxModel = <C extends string>(
  examples: ReadonlyArray<{ readonly x: ReadonlyArray<string>; readonly y: C }>,
  classes: ReadonlyArray<C>,
  settings: { readonly l2: number; readonly epochs: number }
) => {
  const K = classes.length
  const zero = () => Array.from({ length: K }, () => 0)
  const weights = new Map<string, Array<number>>()
  const bias = zero()
  const averageFrom = Math.floor(settings.epochs / 2)
  const sums = new Map<string, { sum: Array<number>; since: number }>()
  const biasSum = zero()
  let steps = 0
  const of = (f: string) => weights.get(f) ?? weights.set(f, zero()).get(f)!
  const hold = (f: string) => {
    const s = sums.get(f) ?? sums.set(f, { sum: zero(), since: 0 }).get(f)!
    const w = of(f)
    for (let k = 0; k < K; k++) s.sum[k]! += w[k]! * (steps - s.since)
    s.since = steps
  }
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    const averaging = epoch >= averageFrom
    for (const { x, y } of examples) {
      const z = [...bias]
      for (const f of x) {
        const w = weights.get(f)
        if (w !== undefined) for (let k = 0; k < K; k++) z[k]! += w[k]!
      }
      const top = Math.max(...z)
      const e = z.map((v) => Math.exp(v - top))
      const total = e.reduce((a, b) => a + b, 0)
      const gradient = e.map((v, k) => v / total - (classes[k] === y ? 1 : 0))
      for (let k = 0; k < K; k++) bias[k]! -= RATE * gradient[k]!
      for (const f of x) {
        if (averaging) hold(f)
        const w = of(f)
        for (let k = 0; k < K; k++) w[k] = w[k]! - RATE * (gradient[k]! + settings.l2 * w[k]!)
      }
      if (averaging) {
        steps++
        for (let k = 0; k < K; k++) biasSum[k]! += bias[k]!
      }
    }
  }
  for (const f of weights.keys()) hold(f)
  const kept = [...sums]
    .map(([f, s]) => [f, s.sum.map((v) => round(v / steps))] as const)
    .filter(([, w]) => w.some((v) => Math.abs(v) >= PRUNE))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return { classes: [...classes], bias: biasSum.map((v) => round(v / steps)), weights: Object.fromEntries(kept) }
}

export const trainIds = (): ReadonlyArray<string> => read(Split, join(HERE, "split.json")).train

/** Run as a script: `main` is the module's own file. */
export const isMain = (url: string) => process.argv[1] !== undefined && fileURLToPath(url) === process.argv[1]
