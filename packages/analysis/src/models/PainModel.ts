/**
 * Pains learned from the annotated calls: the same features and regression as the objection model
 * (`TurnModel.ts`: the words and word pairs of a buyer's turn and of the rep's turn before
 * it), trained by `npm run train:pains` (`eval/train-pains.ts`) on the train part of the
 * evaluation, its weights in `pain-model.json`. It hears problems told without a pain word: a
 * figure that is a burden ("Average was eleven minutes last month. And about a third of callers
 * hang up."), a story of what went wrong ("Pump was due a rebuild. Eighteen months overdue. Nobody
 * knew."). On the eight batches written blind, each left out in turn, the rules alone found pains
 * at P 0.56 / R 0.34 (turn level), the rules and the model together at P 0.65 / R 0.69 (the whole analysis).
 * Since callsight-1.14 a turn is a pain past 0.2, not 0.3: on the thirteen blind batches, each left
 * out in turn, P 0.617 / R 0.735 → 0.605 / 0.786 (F1 0.671 → 0.684, the peak of 0.1–0.5).
 */
import type { TurnModel } from "./TurnModel.js"
import model from "./pain-model.json" with { type: "json" }

export const PAIN_MODEL: TurnModel = model

