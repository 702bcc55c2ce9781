/**
 * Value claims learned from the annotated calls: the features and regression of the objection
 * model (`TurnModel.ts`), read over a rep's turn with the buyer's turn before it as context
 * (`r:` features), trained by `npm run train:value` (`eval/train-value.ts`) on the train part of the
 * evaluation, its weights in `value-model.json`. It hears what the rep says the buyer gets when no
 * value word or figure of the rules is in it ("You'd stop retyping every order.", "Your planners
 * see the whole week on one screen."). On the eight batches written blind, each left out in turn,
 * the rules alone found value claims at P 0.74 / R 0.32 (turn level), the rules and the model
 * together at P 0.70 / R 0.66 (the whole analysis). Since callsight-1.14 a turn is a claim past 0.2,
 * not 0.3: on the thirteen blind batches, each left out in turn, P 0.704 / R 0.743 → 0.681 / 0.787
 * (F1 0.723 → 0.730, the peak of 0.1–0.5).
 */
import type { TurnModel } from "./TurnModel.js"
import model from "./value-model.json" with { type: "json" }

export const VALUE_MODEL: TurnModel = model

