/**
 * @callsight/analysis: the analysis engine, from an audio file and its words to the scored call
 * and its evidence report (docs/method.md). Pure: no HTTP, no SQL, nothing of the server; the
 * speech-to-text provider and the LLM come in as functions (`Analyzer.ts`).
 *
 * The pipeline, one folder per stage:
 * - `signal/`: sniff, decode and resample the audio; FFT and features; speech activity; the
 *   speaker model (GMM, clustering, diarization); roles from acoustic cues; the metrics that need
 *   no words. `Acoustic.ts` runs the stage.
 * - `text/`: the provider's words (`Transcript.ts`), the lexicon, dates, commitments, push-back,
 *   and the content analysis (`Content.ts`: the words attached to our turns, `Attach.ts`; their
 *   sentences, `Sentences.ts`; the content metrics; the findings in `findings/`).
 * - `models/`: the learned turn models and their weights (trained by `eval/train-*.ts`).
 * - `scoring/`: the scorecard (rules, moments, scores and their explanations) and the LLM's
 *   assessment merged in (`Assist.ts`).
 * - `report/`: the HTML evidence report.
 */
export * from "./Analyzer.js"
export * from "./Method.js"
export * from "./RepChannel.js"
export * from "./Types.js"

export * from "./signal/index.js"

export * from "./text/Commitments.js"
export * from "./text/Content.js"
export * from "./text/ContentMetrics.js"
export * from "./text/Dates.js"
export * from "./text/findings/NextSteps.js"
export * from "./text/findings/Objections.js"
export * from "./text/findings/Pains.js"
export * from "./text/findings/Value.js"
export * from "./text/lexicon/Commitments.js"
export * from "./text/lexicon/Fillers.js"
export * from "./text/lexicon/Numbers.js"
export * from "./text/lexicon/Objections.js"
export * from "./text/lexicon/Qualification.js"
export * from "./text/lexicon/Questions.js"
export * from "./text/lexicon/Tokens.js"
export * from "./text/lexicon/Value.js"
export * from "./text/lexicon/When.js"
export * from "./text/Moment.js"
export { gapFeatures, opensClause } from "./text/Sentences.js"
export * from "./text/Pushback.js"
export * from "./text/Summary.js"
export * from "./text/Transcript.js"

export * from "./models/CallTypeModel.js"
export * from "./models/KindModel.js"
export * from "./models/ObjectionModel.js"
export * from "./models/PainModel.js"
export * from "./models/SentenceEndModel.js"
export * from "./models/TurnModel.js"
export * from "./models/ValueModel.js"

export * from "./scoring/Assist.js"
export * from "./scoring/Dimensions.js"
export * from "./scoring/Explanations.js"
export * from "./scoring/Moments.js"
export * from "./scoring/Rules.js"
export * from "./scoring/Scorecard.js"

export * from "./report/Html.js"
export * from "./report/Report.js"
