/**
 * The whole analysis of one call as JSON (docs/method.md steps 3–8). One schema for
 * every door that shows it: `GET /v1/teams/calls/{call_id}`, `GET /v1/workspace/calls/{call_id}`
 * and the assistant's `calls/{call_id}`.
 */
import { Schema } from "effect"
import { CallId, Timestamp } from "./Common.js"

export const AnalysisStatus = Schema.Literal("queued", "processing", "completed", "failed")
export type AnalysisStatus = typeof AnalysisStatus.Type

export const AnalysisStage = Schema.Literal("queued", "decode", "diarize", "transcribe", "score", "report", "done")

export const SpeakerRole = Schema.Literal("rep", "buyer", "unknown")

export const AnalysisError = Schema.Struct({
  code: Schema.String.annotations({ examples: ["undecodable_audio", "too_short", "transcription_failed"] }),
  message: Schema.String
}).annotations({ identifier: "AnalysisError" })

export const SpeakerTurn = Schema.Struct({
  speaker: Schema.String,
  role: SpeakerRole,
  start: Schema.Number,
  end: Schema.Number
}).annotations({ identifier: "SpeakerTurn" })

export const Speaker = Schema.Struct({
  speaker: Schema.String,
  role: SpeakerRole,
  role_confidence: Schema.Number,
  talk_time_s: Schema.Number,
  talk_share: Schema.Number
}).annotations({ identifier: "Speaker" })

export const CallMetrics = Schema.Struct({
  talk_ratio: Schema.NullOr(Schema.Number),
  longest_monologue_s: Schema.NullOr(Schema.Number),
  longest_customer_story_s: Schema.NullOr(Schema.Number),
  interactivity: Schema.NullOr(Schema.Number),
  patience_s: Schema.NullOr(Schema.Number),
  interruptions: Schema.NullOr(Schema.Number),
  silence_ratio: Schema.NullOr(Schema.Number),
  question_count: Schema.NullOr(Schema.Number),
  question_rate: Schema.NullOr(Schema.Number),
  words_per_minute: Schema.NullOr(Schema.Struct({ rep: Schema.NullOr(Schema.Number), buyer: Schema.NullOr(Schema.Number) })),
  filler_rate: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "CallMetrics" })

export const ScorecardDimensionName = Schema.Literal(
  "discovery",
  "listening",
  "objection_handling",
  "value",
  "next_steps",
  "conversation_flow"
)

/** Who found what a point rests on: the method's rules, or an LLM whose quote was found in the transcript. */
export const EvidenceSource = Schema.Literal("rules", "llm").annotations({
  identifier: "EvidenceSource",
  description: "`rules`: found by the method's rules; `llm`: found by the tenant's LLM and verified (its quote is in the transcript). " +
    "Present when an LLM assisted the analysis; absent otherwise (then everything is the rules')."
})

export const Evidence = Schema.Struct({
  dimension: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  speaker: Schema.NullOr(Schema.String),
  quote: Schema.NullOr(Schema.String),
  effect: Schema.Number.annotations({ description: "points added (positive) or removed (negative)" }),
  source: Schema.optional(EvidenceSource)
}).annotations({ identifier: "Evidence" })

export const ScorecardDimension = Schema.Struct({
  dimension: ScorecardDimensionName,
  score: Schema.NullOr(Schema.Number).annotations({ description: "0–100; null when not assessed" }),
  assessed: Schema.Boolean,
  weight: Schema.Number,
  reason: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ScorecardDimension" })

/** How many dimensions the overall score rests on; under 4 of 6 it is partial and carries no grade. */
export const OverallBasis = Schema.Struct({
  assessed: Schema.Number.annotations({ description: "dimensions assessed (the overall score is their weighted mean)" }),
  of: Schema.Number.annotations({ description: "dimensions in the scorecard (6)" }),
  partial: Schema.Boolean.annotations({
    description: "true when fewer than 4 dimensions were assessed: the overall score is shown as \"partial (n of 6)\", without a grade"
  })
}).annotations({ identifier: "OverallBasis" })

export const Scorecard = Schema.Struct({
  overall: Schema.NullOr(Schema.Number),
  overall_basis: Schema.optional(OverallBasis),
  dimensions: Schema.Array(ScorecardDimension)
}).annotations({ identifier: "Scorecard" })

export const TranscriptSegment = Schema.Struct({
  speaker: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  text: Schema.String
}).annotations({ identifier: "TranscriptSegment" })

export const QualificationElement = Schema.Struct({
  element: Schema.String,
  score: Schema.Literal(0, 1, 2),
  evidence: Schema.NullOr(Evidence)
})

export const Qualification = Schema.Struct({
  framework: Schema.Literal("MEDDPICC", "BANT", "SPIN"),
  elements: Schema.Array(QualificationElement)
}).annotations({ identifier: "Qualification" })

/**
 * The tenant's LLM as a second reader of a rule finding the method is unsure of (docs/method.md,
 * "LLM assistance"): `kept` it stands (and carries `source: "rules"`), `rejected` it was taken out
 * of the objections and the scores, and is listed in `llm.verdicts` with the LLM's reason.
 */
export const FindingVerdict = Schema.Literal("kept", "rejected").annotations({
  identifier: "FindingVerdict",
  description: "The tenant's LLM's verdict on a rule finding whose confidence was under the method's threshold: `kept` or `rejected`"
})

export const Objection = Schema.Struct({
  kind: Schema.Literal("price", "budget", "timing", "authority", "need", "competitor"),
  at: Schema.Number,
  quote: Schema.String,
  response: Schema.Literal("pause", "question_back", "long_pitch", "other"),
  response_pause_s: Schema.NullOr(Schema.Number),
  source: Schema.optional(EvidenceSource),
  verdict: Schema.optional(FindingVerdict).annotations({
    description: "present on a rule finding the tenant's LLM was asked about (its confidence under the threshold) and kept; " +
      "the reason is in `llm.verdicts`. Rejected findings are not in `objections`: see `llm.verdicts`"
  })
}).annotations({ identifier: "Objection" })

export const NextStep = Schema.Struct({
  at: Schema.Number,
  quote: Schema.String,
  owner: Schema.NullOr(Schema.String),
  due: Schema.NullOr(Schema.String),
  source: Schema.optional(EvidenceSource)
}).annotations({ identifier: "NextStep" })

/** Who turned the speech into words, and how far its speaker labels agree with our diarization. */
export const Transcription = Schema.Struct({
  provider: Schema.Literal("deepgram", "assemblyai", "openai"),
  model: Schema.String,
  language: Schema.NullOr(Schema.String),
  diarization_agreement: Schema.NullOr(Schema.Number).annotations({
    description: "share of word time (0–1) on which the provider's own speaker labels agree with ours; null when the provider does not diarize"
  })
}).annotations({ identifier: "Transcription" })

/** A rule finding the tenant's LLM was asked about, and what it said (`llm.verdicts`). */
export const LlmVerdict = Schema.Struct({
  kind: Objection.fields.kind,
  at: Schema.Number,
  quote: Schema.String,
  confidence: Schema.Number.annotations({ description: "the objection model's probability (0–1) for the buyer's words: under the threshold" }),
  source: EvidenceSource.annotations({ description: "who found the finding: always `rules` (only the rules' findings are put to the LLM)" }),
  verdict: FindingVerdict,
  reason: Schema.String.annotations({ description: "the LLM's reason, in its words (one sentence)" })
}).annotations({ identifier: "LlmVerdict" })

/**
 * What the tenant's LLM added to the rule-based analysis: one structured-output request per call,
 * each item quoting the transcript (items whose quote is not found are dropped and counted), and
 * its verdicts on the rule findings the method is unsure of (`doubtful_items`, `verdicts`).
 */
export const LlmAssistance = Schema.Struct({
  provider: Schema.String.annotations({ examples: ["openai", "anthropic", "openai-compatible"] }),
  model: Schema.String,
  assisted_dimensions: Schema.Array(Schema.String).annotations({
    description: "the dimensions (and `qualification`) whose findings the LLM added to, rescored by the same rules"
  }),
  added_items: Schema.Number.annotations({ description: "verified items the rules had not found, merged in (`source: \"llm\"`)" }),
  dropped_items: Schema.Number.annotations({ description: "items dropped because a quote (or a due phrase) was not found in the transcript" }),
  error: Schema.NullOr(Schema.String).annotations({
    description: "why the LLM gave nothing (refused key, no answer, an answer of another shape); the rule-based result stands"
  }),
  doubtful_items: Schema.optional(Schema.Number).annotations({
    description: "rule findings put to the LLM for a verdict: objections whose confidence (the objection model's probability) " +
      "is under the method's threshold (0.45, docs/method.md); absent in analyses made before the LLM was a second reader"
  }),
  verdicts: Schema.optional(Schema.Array(LlmVerdict)).annotations({
    description: "the LLM's verdicts on those findings, each with its reason (a doubtful finding it gave no verdict on stands, unlisted)"
  }),
  notes: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "what of the LLM's answer was ignored, and why (a verdict on an id that was not put to it, of another shape, or repeated)"
  })
}).annotations({ identifier: "LlmAssistance" })

/** The type of a sales call: given at upload, or detected from its words (docs/method.md, "Call types"). */
export const CallTypeName = Schema.Literal("cold_call", "discovery", "demo", "negotiation", "renewal", "support_upsell").annotations({
  identifier: "CallTypeName",
  description: "cold_call | discovery | demo | negotiation | renewal | support_upsell (an account call with an existing customer: " +
    "support, check-in or upsell). The scorecard weighs its dimensions by the type."
})

/** Which channel of a stereo recording carries the rep: `auto` decides from the call itself. */
export const RepChannelSetting = Schema.Literal("left", "right", "auto").annotations({
  identifier: "RepChannelSetting",
  description: "Stereo recordings: the channel that carries the rep. `auto` decides from the content (who asks the questions, " +
    "who names the price) or, without a transcript, from the acoustic cues; mono recordings ignore it."
})

export const CallTypeResult = Schema.Struct({
  type: CallTypeName,
  source: Schema.Literal("given", "detected").annotations({ description: "`given` at upload (it wins), or `detected` from the words" }),
  confidence: Schema.Number.annotations({ description: "0–1: the detector's probability of the type; 1 when given" }),
  reason: Schema.String.annotations({ description: "why: \"given at upload\", or the words that weighed most for the type" })
}).annotations({ identifier: "CallTypeResult" })

export const RepChannelResult = Schema.Struct({
  requested: RepChannelSetting,
  chosen: Schema.Literal("left", "right"),
  reason: Schema.String.annotations({ description: "why that channel: as set, or which cues won under `auto`" })
}).annotations({ identifier: "RepChannelResult" })

/** A quote a summary item rests on: words exactly as said, where they were said. */
export const SummaryQuote = Schema.Struct({
  speaker: Schema.String.annotations({ description: "the speaker label of the transcript segment the words are in" }),
  start: Schema.Number.annotations({ description: "seconds from the start of the call: when the quoted words begin" }),
  quote: Schema.String.annotations({
    description: "the words exactly as in one segment of `transcript` (a substring of its `text`, never an ellipsis or a paraphrase)"
  })
}).annotations({ identifier: "SummaryQuote" })

/** What a summary item is about: the finding it rests on, or `need` / `agreement` / `risk` for an item the tenant's LLM wrote. */
export const SummaryItemKind = Schema.Literal(
  "pain",
  "business_number",
  "next_step",
  "objection",
  "no_next_step",
  "no_owner",
  "need",
  "agreement",
  "risk"
).annotations({
  identifier: "SummaryItemKind",
  description: "needs: `pain` (a problem the buyer side stated), `business_number` (a figure of their business); agreed: `next_step` " +
    "(a dated step, with its owner and due); risks: `objection` (one left open), `no_next_step` (the call ended without a dated " +
    "step), `no_owner` (a step nobody owns); `need`, `agreement`, `risk`: an item the tenant's LLM wrote (`source: \"llm\"`)"
})

export const SummaryItem = Schema.Struct({
  kind: SummaryItemKind,
  text: Schema.String.annotations({ description: "one short sentence" }),
  quotes: Schema.Array(SummaryQuote).annotations({
    description: "the words the sentence rests on, each verbatim from the transcript; empty only for `no_next_step` when the rep said nothing"
  }),
  source: EvidenceSource.annotations({ description: "`rules`: written from the method's findings; `llm`: written by the tenant's LLM, every quote verified" })
}).annotations({ identifier: "SummaryItem" })

/**
 * A short summary of the call (docs/method.md, "Summary"): what the buyer needs, what was agreed,
 * the open risks; each item a sentence with the verbatim quotes it rests on.
 */
export const CallSummary = Schema.Struct({
  needs: Schema.Array(SummaryItem).annotations({ description: "what the buyer side needs: the pains and business figures they stated (3 at most)" }),
  agreed: Schema.Array(SummaryItem).annotations({ description: "what was agreed: the dated next steps, with owner and due (5 at most)" }),
  risks: Schema.Array(SummaryItem).annotations({
    description: "open risks: objections left open, no dated next step, a step without an owner (5 at most)"
  }),
  source: EvidenceSource.annotations({
    description: "`llm` when the tenant's LLM wrote any part (its items verified against the transcript; a part it gave nothing " +
      "verifiable for keeps the rules' items), else `rules` (extractive, no LLM)"
  })
}).annotations({ identifier: "CallSummary" })

export const AnalysisSummary = Schema.Struct({
  overall_score: Schema.NullOr(Schema.Number),
  overall_basis: Schema.optional(OverallBasis),
  talk_ratio: Schema.NullOr(Schema.Number),
  speakers: Schema.Number,
  transcript_available: Schema.Boolean
}).annotations({ identifier: "AnalysisSummary" })

/** The whole analysis of a call. Fields that need a finished analysis are null before it. */
export const CallAnalysis = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  status: AnalysisStatus,
  created_at: Timestamp,
  meeting_at: Timestamp.annotations({
    description: "When the meeting took place (the upload's or the recorder's `meeting_at`), else the upload time: the time every period view counts the call in"
  }),
  deal_id: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description: "The deal the call belongs to (docs/deals.md); null: none"
  }),
  account_id: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }).annotations({
    description: "The buyer's company (account) the call belongs to; null: none known"
  }),
  completed_at: Schema.NullOr(Timestamp),
  duration_s: Schema.NullOr(Schema.Number),
  method_version: Schema.NullOr(Schema.String),
  channels: Schema.NullOr(Schema.Number),
  speakers: Schema.Array(Speaker),
  speaker_turns: Schema.Array(SpeakerTurn),
  metrics: Schema.NullOr(CallMetrics),
  overall_score: Schema.NullOr(Schema.Number).annotations({
    description: "The overall score (0–100): `scorecard.overall`, under the name the status (`summary.overall_score`), " +
      "the calls list and the webhooks use; null until the analysis completed, or when no dimension was assessed"
  }),
  scorecard: Schema.NullOr(Scorecard),
  evidence: Schema.Array(Evidence),
  qualification: Schema.NullOr(Qualification),
  objections: Schema.Array(Objection),
  next_steps: Schema.Array(NextStep),
  transcript: Schema.NullOr(Schema.Array(TranscriptSegment)),
  /** null for an acoustic-only analysis */
  transcription: Schema.NullOr(Transcription),
  /** null when no LLM assisted (the tenant saved no LLM integration, no transcript, or before method callsight-1.2) */
  llm: Schema.optional(Schema.NullOr(LlmAssistance)),
  /** The call type the scorecard was weighed by; null when not given and there were no words to detect it from. */
  call_type: Schema.optionalWith(Schema.NullOr(CallTypeResult), { default: () => null }),
  /** Which stereo channel was taken for the rep, and why; null for mono (or stereo diarized by clustering). */
  rep_channel: Schema.optionalWith(Schema.NullOr(RepChannelResult), { default: () => null }),
  summary: Schema.optionalWith(Schema.NullOr(CallSummary), { default: () => null }).annotations({
    description: "A short summary: what the buyer needs, what was agreed, open risks, each item quoted verbatim from the " +
      "transcript. Null without a transcript, before the analysis completed, and for calls analysed before method callsight-1.26"
  }),
  requested_call_type: Schema.optionalWith(Schema.NullOr(CallTypeName), { default: () => null }).annotations({
    description: "`call_type` as given at upload; null when not given (then it is detected)"
  }),
  requested_rep_channel: Schema.optionalWith(Schema.NullOr(RepChannelSetting), { default: () => null }).annotations({
    description: "`rep_channel` as given at upload; null when not given (then the tenant's default applies)"
  }),
  error: Schema.NullOr(AnalysisError)
}).annotations({ identifier: "CallAnalysis" })
export type CallAnalysis = typeof CallAnalysis.Type
