/**
 * The kind of a found objection (price, budget, timing, authority, need, competitor), learned from
 * the annotated calls: a softmax regression over the words and word pairs of the buyer's turn
 * (`turnFeatures` of `TurnModel.ts`, without the rep's turn before), trained by `npm run train:kinds`
 * (`eval/train-kinds.ts`) on the train part of the evaluation and nothing else, its weights in
 * `kind-model.json`.
 *
 * The phrase patterns and the objection model decide *whether* a turn is push-back; this model
 * names *what* it is about, with the rules' kind as a prior (`RULES_KIND_WEIGHT`, `PRIOR_KEPT`). On the eighteen
 * blind batches left out in turn, the rules' kinds (a phrase's category, else the topic the words
 * name, else `need`) agreed with the annotation on 0.35 of the objections the analysis found that
 * have one; the model with the rules' prior on 0.71 (`train-kinds.ts`; through the whole analysis:
 * `docs/method.md`, callsight-1.21).
 *
 * Pure and deterministic: the same words give the same kind.
 */
import { Objection } from "@callsight/api-spec"
import { Schema } from "effect"
import model from "./kind-model.json" with { type: "json" }
import type { ObjectionKind } from "../text/lexicon/Objections.js"
import { turnFeatures } from "./TurnModel.js"

export interface KindModel {
  /** The kinds, in the order of each feature's weights. */
  readonly classes: ReadonlyArray<ObjectionKind>
  readonly bias: ReadonlyArray<number>
  readonly weights: Readonly<Record<string, ReadonlyArray<number>>>
}

const Header = Schema.Struct({
  classes: Schema.Array(Objection.fields.kind),
  bias: Schema.Array(Schema.Number)
})

/**
 * The kinds and their order checked once, when the module loads (a weight file naming other kinds
 * fails at start, not with a wrong kind); the 13,590 features' weights are taken as typed by the
 * JSON import, as the other models' are (decoding them too took 70 ms at every start).
 */
export const KIND_MODEL: KindModel = { ...Schema.decodeUnknownSync(Header)({ classes: model.classes, bias: model.bias }), weights: model.weights }

/**
 * What the rules' kind weighs in the model's choice: added to that kind's log-odds, so it decides
 * where the words say little ("Not this year." after the rules heard a timing phrase), not where
 * they say something else. And how much of the model's own prior is kept: the train calls hold more
 * price objections than any other kind (179 of 640), so at full weight the model calls a line whose
 * words it cannot read a price objection ("Our security policy says customer data can't leave the
 * country."). Both chosen on the eighteen blind batches left out in turn (each batch's objections
 * as the analysis finds them, kinds from the model trained on the other batches, against the
 * annotated kind, 595 objections): with the whole prior, the rules' weight 0 (the model alone)
 * 0.671, 0.5 0.679, 1 0.686, 1.5 0.677, 2 0.654, 3 0.615, the rules' kind wherever they have one
 * 0.536; at weight 1, a quarter of the prior 0.694, **half 0.706**, three quarters 0.692, none 0.677
 * (at half, weight 0.5 0.697, 1.5 0.689). Tried and not kept: the rules' kind as a feature the model
 * learns (0.661); a line of under eight words given the rules' kind (no change: 16 of 640 annotated
 * objections are that short).
 */
export const RULES_KIND_WEIGHT = 1
export const PRIOR_KEPT = 0.5

/**
 * The kind the model finds likeliest for what a buyer said (its sentences as plain text), the
 * rules' kind (a phrase's category, or the topic the words name) weighing `RULES_KIND_WEIGHT`.
 */
export const objectionKindOf = (
  sentences: ReadonlyArray<{ readonly plain: string; readonly question: boolean }>,
  ruled: ObjectionKind | null,
  m: KindModel = KIND_MODEL
): ObjectionKind => {
  const z = m.classes.map((kind, k) => PRIOR_KEPT * m.bias[k]! + (kind === ruled ? RULES_KIND_WEIGHT : 0))
  for (const f of turnFeatures(sentences)) {
    const w = m.weights[f]
    if (w !== undefined) for (let k = 0; k < z.length; k++) z[k]! += w[k]!
  }
  let best = 0
  for (let k = 1; k < z.length; k++) if (z[k]! > z[best]!) best = k
  return m.classes[best]!
}
