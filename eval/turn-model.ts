/**
 * How the learned models of the content analysis are trained (`TurnModel.ts`; `ObjectionModel.ts`, `PainModel.ts`,
 * `ValueModel.ts`): one example per turn of one side in each train call (the script's text, split
 * into sentences as the analysis splits them, with the other side's turn just before it as
 * context), labelled by the turns an
 * annotation lists; a logistic regression trained by stochastic gradient descent in a fixed order
 * (deterministic: the same calls give the same weights), learning rate 0.1; weights under 0.001
 * in magnitude are dropped.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { plain } from "../packages/server/src/analysis/Lexicon.js"
import { turnFeatures } from "../packages/server/src/analysis/TurnModel.js"

const HERE = dirname(fileURLToPath(import.meta.url))
const RATE = 0.1
const PRUNE = 0.001

const Split = Schema.Struct({ train: Schema.Array(Schema.String) })
const Script = Schema.Struct({ turns: Schema.Array(Schema.Struct({ who: Schema.String, text: Schema.String })) })
const read = <A, I>(schema: Schema.Schema<A, I>, path: string): A => Schema.decodeUnknownSync(schema)(JSON.parse(readFileSync(path, "utf8")))

/** Sentences as the analysis cuts them: at ".", "?" and "!". */
const sentencesOf = (text: string) =>
  text.split(/(?<=[.?!]["')]*)\s+/).filter((s) => s.trim().length > 0).map((s) => ({ plain: plain(s), question: /\?["')]*$/.test(s.trim()) }))

export interface Settings {
  readonly l2: number
  readonly epochs: number
  readonly threshold: number
  /** Whose turns are the examples (the other side's turn before is the context): the buyer's unless said. */
  readonly side?: "buyer" | "rep"
}

/**
 * The model the train calls give, with `labelled` reading an annotation (the parsed JSON) into the
 * turns that are positive examples.
 */
export const trainTurnModel = (ids: ReadonlyArray<string>, labelled: (annotation: unknown) => ReadonlySet<number>, settings: Settings) => {
  const examples = ids.flatMap((id) => {
    const script = read(Script, join(HERE, "calls", `${id}.script.json`))
    const positive = labelled(JSON.parse(readFileSync(join(HERE, "calls", `${id}.annotation.json`), "utf8")))
    const isSide = (who: string | undefined) => who !== undefined && (who === "rep") === (settings.side === "rep")
    return script.turns.flatMap((t, i) => {
      if (!isSide(t.who)) return []
      const previous = script.turns[i - 1]
      const before = previous !== undefined && !isSide(previous.who) ? sentencesOf(previous.text) : []
      return [{ x: [...turnFeatures(sentencesOf(t.text), before)], y: positive.has(i) ? 1 : 0 }]
    })
  })
  const weights = new Map<string, number>()
  let bias = 0
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    for (const { x, y } of examples) {
      let z = bias
      for (const f of x) z += weights.get(f) ?? 0
      const gradient = 1 / (1 + Math.exp(-z)) - y
      bias -= RATE * gradient
      for (const f of x) {
        const w = weights.get(f) ?? 0
        weights.set(f, w - RATE * (gradient + settings.l2 * w))
      }
    }
  }
  const kept = [...weights].filter(([, w]) => Math.abs(w) >= PRUNE).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const round = (w: number) => Math.round(w * 1e5) / 1e5
  return {
    model: { bias: round(bias), threshold: settings.threshold, weights: Object.fromEntries(kept.map(([f, w]) => [f, round(w)])) },
    turns: examples.length,
    positive: examples.filter((e) => e.y === 1).length
  }
}

export const trainIds = (): ReadonlyArray<string> => read(Split, join(HERE, "split.json")).train

/** Run as a script: `main` is the module's own file. */
export const isMain = (url: string) => process.argv[1] !== undefined && fileURLToPath(url) === process.argv[1]
