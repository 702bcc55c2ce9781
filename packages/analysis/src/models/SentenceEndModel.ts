/**
 * Where a sentence ends in words that came without punctuation (issue 35, item 3: speech-to-text
 * with `punctuate=false`): a logistic regression over the words on either side of each gap between
 * two words of one speaker (`gapFeatures` in `text/Sentences.ts`), trained by `npm run
 * train:sentence-ends` (`eval/train-sentence-ends.ts`) on the train part's written turns, as
 * written and as speech-to-text would give them, their full stops, question and exclamation marks
 * the labels. `sentencesOf` cuts a sentence where the model is past its threshold; where the
 * provider punctuates, its punctuation decides and the model is not read.
 *
 * Pure and deterministic: the same words give the same cuts.
 */
import model from "./sentence-end-model.json" with { type: "json" }
import type { TurnModel } from "./TurnModel.js"

export const SENTENCE_END_MODEL: TurnModel = model
