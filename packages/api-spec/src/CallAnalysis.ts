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

export const Objection = Schema.Struct({
  kind: Schema.Literal("price", "budget", "timing", "authority", "need", "competitor"),
  at: Schema.Number,
  quote: Schema.String,
  response: Schema.Literal("pause", "question_back", "long_pitch", "other"),
  response_pause_s: Schema.NullOr(Schema.Number),
  source: Schema.optional(EvidenceSource)
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

/**
 * What the tenant's LLM added to the rule-based analysis: one structured-output request per call,
 * each item quoting the transcript (items whose quote is not found are dropped and counted).
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
  })
}).annotations({ identifier: "LlmAssistance" })

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
  error: Schema.NullOr(AnalysisError)
}).annotations({ identifier: "CallAnalysis" })
export type CallAnalysis = typeof CallAnalysis.Type
