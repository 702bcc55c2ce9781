/**
 * The type of a call (cold call, discovery, demo, negotiation, renewal, support/upsell), learned
 * from the annotated calls: a softmax regression over the words the rep and the buyer side say in
 * the whole call (`callTypeFeatures`), trained by `npm run train:call-types`
 * (`eval/train-call-types.ts`) on the train part of the evaluation and nothing else, its weights in
 * `call-type-model.json`. The annotations' `pilot` calls are learned as `demo` (a proof of the
 * product on the buyer's data) and their `check_in` calls as `support_upsell` (an account call with
 * an existing customer).
 *
 * It answers a type, how sure it is (the softmax probability of that type) and why: the words
 * that weighed most for it against the other types. The scorecard weighs its dimensions by the
 * type (`CALL_TYPE_WEIGHTS` in `Dimensions.ts`).
 *
 * Pure and deterministic: the same words give the same type.
 */
import { CallTypeName } from "@callsight/api-spec"
import { Schema } from "effect"
import model from "./call-type-model.json" with { type: "json" }
import { plain } from "../text/lexicon/Tokens.js"

/** The types of call, in the order of each feature's weights. */
export const CALL_TYPES = CallTypeName.literals
export type CallType = typeof CallTypeName.Type

export const CALL_TYPE_LABELS: Readonly<Record<CallType, string>> = {
  cold_call: "cold call",
  discovery: "discovery",
  demo: "demo",
  negotiation: "negotiation",
  renewal: "renewal",
  support_upsell: "support/upsell"
}

export interface CallTypeModel {
  readonly classes: ReadonlyArray<CallType>
  readonly bias: ReadonlyArray<number>
  readonly weights: Readonly<Record<string, ReadonlyArray<number>>>
}

const Header = Schema.Struct({ classes: Schema.Array(CallTypeName), bias: Schema.Array(Schema.Number) })

/** The committed model: its classes and their order checked when the module loads. */
export const CALL_TYPE_MODEL: CallTypeModel = {
  ...Schema.decodeUnknownSync(Header)({ classes: model.classes, bias: model.bias }),
  weights: model.weights
}

/** One turn of a call as the model reads it: who said it (the rep or not) and its text. */
export interface SaidTurn {
  readonly rep: boolean
  readonly text: string
}

/**
 * The features of a whole call: each word the rep says (`r:`) and each word the buyer side says
 * (`b:`), once each however often it is said. Who says a word matters: "renewal" from the buyer
 * ("our renewal is in May") and from the rep ("before your renewal") both point at a renewal, but
 * "price" from the rep is mostly a negotiation, from the buyer also a cold call's brush-off.
 */
export const callTypeFeatures = (turns: ReadonlyArray<SaidTurn>): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const t of turns) {
    const side = t.rep ? "r:" : "b:"
    for (const w of plain(t.text).split(" ")) if (w.length > 1) out.add(`${side}${w}`)
  }
  return out
}

export interface DetectedCallType {
  readonly type: CallType
  /** The model's probability of the type (0–1, two decimals). */
  readonly confidence: number
  /** The words that weighed most for the type against the others, with the side that said them. */
  readonly words: ReadonlyArray<{ readonly word: string; readonly side: "rep" | "buyer" }>
}

/** How many words the reason names. */
const REASON_WORDS = 5

/** The likeliest type of a call from its words; null when it has no words the model knows. */
export const detectCallType = (turns: ReadonlyArray<SaidTurn>, m: CallTypeModel = CALL_TYPE_MODEL): DetectedCallType | null => {
  const K = m.classes.length
  const z = [...m.bias]
  const known: Array<readonly [string, ReadonlyArray<number>]> = []
  for (const f of callTypeFeatures(turns)) {
    const w = m.weights[f]
    if (w === undefined) continue
    known.push([f, w])
    for (let k = 0; k < K; k++) z[k]! += w[k]!
  }
  if (known.length === 0) return null
  let best = 0
  for (let k = 1; k < K; k++) if (z[k]! > z[best]!) best = k
  const top = z[best]!
  const total = z.reduce((sum, v) => sum + Math.exp(v - top), 0)
  // a word's weight for the type against the mean of the others: what it did for this choice
  const lift = (w: ReadonlyArray<number>) => w[best]! - (w.reduce((a, b) => a + b, 0) - w[best]!) / (K - 1)
  const words = known
    .map(([f, w]) => ({ f, lift: lift(w) }))
    .filter((x) => x.lift > 0)
    .sort((a, b) => b.lift - a.lift || (a.f < b.f ? -1 : 1))
    .slice(0, REASON_WORDS)
    .map(({ f }) => ({ word: f.slice(2), side: f.startsWith("r:") ? ("rep" as const) : ("buyer" as const) }))
  return { type: m.classes[best]!, confidence: Math.round((1 / total) * 100) / 100, words }
}

/** The reason of a detected type, as the JSON and the report give it. */
export const detectedReason = (d: DetectedCallType): string =>
  d.words.length === 0
    ? `detected from the words of the call (${Math.round(d.confidence * 100)} % sure)`
    : `detected from the words of the call: ${d.words.map((w) => `"${w.word}" (${w.side})`).join(", ")}`
