/**
 * LLM-assisted assessment (docs/method.md, "LLM assistance"): when the tenant has an LLM
 * integration, the transcript goes to its model in one structured-output request per call, after
 * the rule-based content analysis; what comes back is verified against the transcript and merged
 * with the rules' findings, and the dimensions it touches are rescored by the same scorecard rules.
 * Pure: the request itself is made outside (`llm/`), this module builds it and reads its answer.
 *
 * Decisions, in one place:
 * - **The request** holds the transcript (segments with time, speaker label and side, and the
 *   tenant's qualification framework), nothing else of the call or the tenant.
 * - **Verified quotes.** Every item quotes the transcript. A quote is found when its words, with
 *   whitespace collapsed and case folded (nothing else: punctuation counts), occur in the
 *   transcript's text; it must hold at least two words. An item is dropped, and counted in
 *   `dropped_items`, when a quote it carries is not found, when a next step's due phrase is not
 *   said between its quote and the end of the other side's reply, when it names an element outside
 *   the framework, or when it is said by the wrong side (objections and pains are the buyer
 *   side's, value claims the rep's: the method's own definitions).
 * - **Kept once.** An item the rules already found is not added again: an objection raised in a
 *   buyer run where the rules found one (one objection per run, as in `Content.ts`); a pain, value
 *   claim or next step whose words overlap in time with one of the rules' from the same speaker;
 *   a qualification element the rules scored as high or higher. The rules' version stays.
 * - **Added items** take their time and speaker from where the quote is in the transcript (word
 *   times when the words line up with the segments, else spread over the segment), and are marked
 *   `source: "llm"`. An added objection's response is read from the rep's next run with the
 *   rules' thresholds (a question within 30 s and 80 words, a pitch past them, a pause of 1 s); an
 *   added next step is owned by the side the model names (`both`: the speaker who said it), due
 *   the day and time the lexicon reads in its due phrase (else the phrase as said), and agreed when
 *   the other side's next segment agrees; an added value claim is tied to the pain it answers when
 *   that pain was said before it, quantified when it holds a number. Next steps without a day or
 *   time are not next steps by the method and are left out (not counted as dropped).
 * - **A second reader.** The rules' objections whose confidence (the objection model's probability,
 *   `ObjectionFinding.confidence`) is under `DOUBTFUL` (`ObjectionModel.ts`) are listed in the
 *   request as doubtful, each with an id (`o` and its place among the rules' objections, from 1),
 *   its time, speaker, kind and quote; the LLM answers a verdict on each (`keep` or `reject`, with a
 *   one-sentence reason). A rejected finding leaves `objections` and the scores and is kept in
 *   `llm.verdicts` with its reason; a kept one stays, marked `source: "rules"`, `verdict: "kept"`.
 *   Only the findings listed can be judged: a verdict on any other id (a confident finding, one
 *   the LLM added, an id never given), a repeated one or one of another shape is ignored and said in
 *   `llm.notes`; a doubtful finding with no verdict stands as it was. An objection the LLM adds on
 *   the words of one it rejected is left out (noted). Without an LLM nothing of this happens.
 * - **Rescored** by `scoreCall` over the merged findings; `assisted_dimensions` lists the
 *   dimensions whose evidence holds an LLM item or whose score changed, and `qualification` when
 *   an element was raised. With an LLM, every evidence item says its `source`.
 * - **Failures** (no answer, an error, an answer of another shape) leave the rule-based result as
 *   it was, with the reason in `llm.error`.
 */
import { type LlmVerdict, Objection } from "@callsight/api-spec"
import { Either, type Effect, ParseResult, Schema } from "effect"
import type { ContentAnalysis } from "../text/Content.js"
import type { NextStepFinding } from "../text/findings/NextSteps.js"
import { type ObjectionFinding, OBJECTION_PAUSE_S, PITCH_S, PITCH_WORDS } from "../text/findings/Objections.js"
import { DOUBTFUL } from "../models/ObjectionModel.js"
import type { BuyerFinding } from "../text/findings/Pains.js"
import type { ValueClaim } from "../text/findings/Value.js"
import { clip, type Moment, type Side } from "../text/Moment.js"
import { isAgreement } from "../text/lexicon/Commitments.js"
import { findNumbers } from "../text/lexicon/Numbers.js"
import { FRAMEWORK_ELEMENTS } from "../text/lexicon/Qualification.js"
import { isQuestion } from "../text/lexicon/Questions.js"
import { endsSentence, tokenize } from "../text/lexicon/Tokens.js"
import { findWhen, formatDue } from "../text/lexicon/When.js"
import { DIMENSIONS, type DimensionName } from "./Dimensions.js"
import { scoreCall } from "./Scorecard.js"
import type { Framework, Word } from "../text/Transcript.js"
import type { EvidenceItem, Metrics, QualificationResult, ScoredCall, SpeakerSummary, Turn } from "../Types.js"

// ---------------------------------------------------------------------------------------------
// The request

/** One structured-output request, provider-neutral: the adapters of `llm/` turn it into theirs. */
export interface StructuredRequest {
  /** The schema's name (OpenAI `json_schema.name`, Anthropic's tool name). */
  readonly name: string
  readonly description: string
  /** JSON Schema of the answer, in the subset OpenAI's strict mode takes (all properties required, none other). */
  readonly schema: Readonly<Record<string, unknown>>
  readonly system: string
  readonly prompt: string
}

export interface AssistFailure {
  readonly message: string
}

/** The tenant's LLM as the analysis sees it: who it is, and the request it answers. */
export interface LlmAssist {
  readonly provider: string
  readonly model: string
  /** The answer's JSON (parsed, not yet checked), or why there is none. */
  readonly assess: (request: StructuredRequest) => Effect.Effect<unknown, AssistFailure>
}

/** What an LLM added to a call (the analysis's `llm`). */
export interface LlmAssistanceResult {
  readonly provider: string
  readonly model: string
  readonly assisted_dimensions: ReadonlyArray<string>
  readonly added_items: number
  readonly dropped_items: number
  readonly error: string | null
  /** The rules' findings put to it for a verdict (`doubtfulFindings`). */
  readonly doubtful_items: number
  /** Its verdicts on them, each with its reason (rejected ones are no longer among the objections). */
  readonly verdicts: ReadonlyArray<typeof LlmVerdict.Type>
  /** What of its answer was ignored, and why. */
  readonly notes: ReadonlyArray<string>
}

export const SCHEMA_NAME = "call_assessment"

const OBJECTION_KINDS = Objection.fields.kind.literals

const QUOTE = "the words exactly as they are in one transcript line (after the speaker label), copied character for character"

const listOf = (description: string, properties: Record<string, Record<string, unknown>>) => ({
  type: "array",
  description,
  items: { type: "object", properties, required: Object.keys(properties), additionalProperties: false }
})

const summaryList = (description: string) =>
  listOf(description, {
    text: { type: "string", description: "one short sentence in your words" },
    quotes: { type: "array", items: { type: "string" }, description: `the words it rests on, each ${QUOTE} (one at least)` }
  })

/** The answer's JSON Schema for a framework (strict-mode compatible: every property required, nullable as a type union). */
export const assessmentSchema = (framework: Framework): Record<string, unknown> => ({
  type: "object",
  properties: {
    objections: listOf("Objections the buyer side raised: a condition, constraint, risk or demand that stands between them and buying.", {
      kind: { type: "string", enum: [...OBJECTION_KINDS], description: "the closest kind" },
      quote: { type: "string", description: `the buyer's objection: ${QUOTE}` }
    }),
    verdicts: listOf("Your verdict on each doubtful finding listed after the transcript (an empty list when none is listed).", {
      id: { type: "string", description: "the doubtful finding's id as listed (e.g. o3)" },
      verdict: { type: "string", enum: ["keep", "reject"], description: "keep: the quoted words are an objection of the buyer side; reject: they are not" },
      reason: { type: "string", description: "why, in one sentence" }
    }),
    next_steps: listOf("Next steps someone committed to, with the day or time said for them.", {
      action: { type: "string", description: "what will be done, in a few words" },
      owner: { type: "string", enum: ["rep", "buyer", "both"], description: "the side that will act" },
      due: { type: ["string", "null"], description: "the day or time words as said in the transcript (e.g. \"next Tuesday at two\"), or null when none was said" },
      quote: { type: "string", description: `the commitment: ${QUOTE}` }
    }),
    pains: listOf("Business pains the buyer side stated.", {
      quote: { type: "string", description: `the buyer's pain: ${QUOTE}` }
    }),
    value_claims: listOf("The rep's claims of value (what the buyer gets back).", {
      quote: { type: "string", description: `the rep's claim: ${QUOTE}` },
      pain: { type: ["string", "null"], description: `the buyer's earlier words of the pain the claim answers (${QUOTE}), or null` }
    }),
    qualification: listOf(`${framework} elements the call covered.`, {
      element: { type: "string", enum: [...FRAMEWORK_ELEMENTS[framework]] },
      score: { type: "integer", enum: [0, 1, 2], description: "0 not covered, 1 vague, 2 specific (a number, a named person or title, a date, a named competitor)" },
      quote: { type: "string", description: `the evidence: ${QUOTE}` }
    }),
    summary: {
      type: "object",
      description: "A short summary of the call for the rep's CRM: each item one short sentence and the quotes it rests on.",
      properties: {
        needs: summaryList("What the buyer side needs: the problems and goals they stated (3 at most)."),
        agreed: summaryList("What was agreed: next steps and commitments, with who acts and when (5 at most)."),
        risks: summaryList("Open risks to the deal: objections left unresolved, no agreed next step, a missing decision maker (5 at most).")
      },
      required: ["needs", "agreed", "risks"],
      additionalProperties: false
    }
  },
  required: ["objections", "verdicts", "next_steps", "pains", "value_claims", "qualification", "summary"],
  additionalProperties: false
})

const SYSTEM = [
  "You review the transcript of a recorded B2B sales call for a sales-coaching service.",
  "Report only what was said in this transcript: the buyer side's objections, next steps with the day or time said for them, the buyer's pains,",
  "the rep's value claims with the pain each answers, and the qualification framework's elements the call covered.",
  "Every quote must be copied verbatim from one transcript line: the same words and punctuation, no ellipsis, no paraphrase, no speaker label or time.",
  "Some objections the method found are listed as doubtful, each with an id: give a verdict on each, keep when the words are an objection of the buyer side",
  "(a condition, constraint, risk or demand that stands between them and buying), reject when they are not, with a one-sentence reason.",
  "Then summarize the call: what the buyer needs, what was agreed, the open risks, each item a short sentence with the quotes it rests on.",
  "Leave out anything you cannot quote exactly. Answer with empty lists when nothing is found."
].join(" ")

const clock = (seconds: number) => {
  const s = Math.max(0, seconds)
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${(s % 60).toFixed(1).padStart(4, "0")}`
}

/** The request for a call: its transcript, with each speaker's side, and the tenant's framework. */
export const assessmentRequest = (input: {
  readonly content: ContentAnalysis
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly framework: Framework
}): StructuredRequest => {
  const sideOf = sides(input.speakers, input.speaker_turns)
  const labels = [...new Set(input.content.transcript.map((s) => s.speaker))]
  const who = labels.map((l) => `${l} is ${sideOf(l) === "rep" ? "the rep" : "on the buyer side"}`).join("; ")
  return {
    name: SCHEMA_NAME,
    description: "What the sales call holds, each item with a verbatim quote of the transcript",
    schema: assessmentSchema(input.framework),
    system: SYSTEM,
    prompt: [
      `Qualification framework: ${input.framework} (elements: ${FRAMEWORK_ELEMENTS[input.framework].join(", ")}).`,
      `Speakers: ${who}.`,
      "",
      "Transcript, one segment per line as [mm:ss.s] speaker: words",
      ...input.content.transcript.map((s) => `[${clock(s.start)}] ${s.speaker}: ${s.text}`),
      "",
      ...doubtfulLines(doubtfulFindings(input.content))
    ].join("\n")
  }
}

/** A rule finding put to the LLM for a verdict, with the id the request gives it. */
export interface Doubtful {
  readonly id: string
  readonly finding: ObjectionFinding
}

/**
 * The rule findings the LLM is asked to judge: the rules' objections whose confidence is under
 * `DOUBTFUL`, each with the id `o<n>`, n its place among the content's objection findings (from 1).
 * The request and the merge both read them from the same content, so the ids agree.
 */
export const doubtfulFindings = (content: ContentAnalysis): Array<Doubtful> =>
  content.findings.objections.flatMap((finding, i) =>
    finding.objection.source !== "llm" && finding.confidence !== null && finding.confidence < DOUBTFUL ? [{ id: `o${i + 1}`, finding }] : [])

const doubtfulLines = (doubtful: ReadonlyArray<Doubtful>): Array<string> =>
  doubtful.length === 0
    ? ["Doubtful findings: none (answer `verdicts` with an empty list)."]
    : [
      "Doubtful findings: objections the method found but is unsure of. Give a verdict on each in `verdicts` (keep or reject, with a one-sentence reason):",
      ...doubtful.map(({ id, finding: f }) => `${id}: [${clock(f.said.start)}] ${f.said.speaker} (${f.objection.kind}): ${f.objection.quote}`)
    ]

// ---------------------------------------------------------------------------------------------
// The answer

const Answer = Schema.Struct({
  objections: Schema.Array(Schema.Struct({ kind: Objection.fields.kind, quote: Schema.String })),
  next_steps: Schema.Array(Schema.Struct({
    action: Schema.String,
    owner: Schema.Literal("rep", "buyer", "both"),
    due: Schema.NullOr(Schema.String),
    quote: Schema.String
  })),
  pains: Schema.Array(Schema.Struct({ quote: Schema.String })),
  value_claims: Schema.Array(Schema.Struct({ quote: Schema.String, pain: Schema.NullOr(Schema.String) })),
  qualification: Schema.Array(Schema.Struct({ element: Schema.String, score: Schema.Literal(0, 1, 2), quote: Schema.String })),
  /** Read one by one (`Verdict`): one of another shape is ignored, not the whole answer; absent, none was given. */
  verdicts: Schema.optional(Schema.Unknown),
  /** Read item by item by `writtenSummary` (`text/Summary.ts`); absent or of another shape, the rules' summary stands. */
  summary: Schema.optional(Schema.Unknown)
})
export type Assessment = typeof Answer.Type

const decodeAnswer = Schema.decodeUnknownEither(Answer)

/** A verdict on a doubtful finding, read strictly: an id, keep or reject, and a reason that says something. */
const Verdict = Schema.Struct({
  id: Schema.Trim,
  verdict: Schema.Literal("keep", "reject"),
  reason: Schema.Trim.pipe(Schema.nonEmptyString())
})
const decodeVerdict = Schema.decodeUnknownEither(Verdict)

/** The longest reason kept (characters). */
const REASON_CHARS = 300

// ---------------------------------------------------------------------------------------------
// The transcript as searchable text with times

/** Case folded, whitespace collapsed: the only normalisation of a quote. */
export const normalise = (text: string): string => text.trim().split(/\s+/).filter((t) => t.length > 0).map((t) => t.toLowerCase()).join(" ")

interface Tok {
  readonly text: string
  readonly start: number
  readonly end: number
  readonly segment: number
  /** Where the token starts in the joined normalised text. */
  readonly offset: number
}

interface TranscriptIndex {
  readonly tokens: ReadonlyArray<Tok>
  readonly joined: string
  readonly segments: ContentAnalysis["transcript"]
  readonly side: ReadonlyArray<Side>
  /** Consecutive segments of one side share a run. */
  readonly run: ReadonlyArray<number>
  readonly turns: ReadonlyArray<Turn>
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const sides = (speakers: ReadonlyArray<SpeakerSummary>, turns: ReadonlyArray<Turn>) => (speaker: string): Side => {
  const role = speakers.find((s) => s.speaker === speaker)?.role
  const fromTurns = turns.find((t) => t.speaker === speaker && t.role !== "unknown")?.role
  return (role !== undefined && role !== "unknown" ? role : fromTurns) === "rep" ? "rep" : "buyer"
}

const indexTranscript = (
  content: ContentAnalysis,
  words: ReadonlyArray<Word>,
  speakers: ReadonlyArray<SpeakerSummary>,
  turns: ReadonlyArray<Turn>
): TranscriptIndex => {
  const segments = content.transcript
  const segTokens = segments.map((s) => s.text.split(/\s+/).filter((t) => t.length > 0))
  // the provider's words in the order the content analysis reads them: their times, when they line up
  const sorted = words
    .filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && w.text.trim().length > 0)
    .map((w) => ({ text: w.text.trim(), start: w.start, end: Math.max(w.start, w.end), speaker: w.speaker ?? "" }))
    .sort((a, b) => a.start - b.start || a.end - b.end || byText(a.text, b.text) || byText(a.speaker, b.speaker))
  const flat = segTokens.flat()
  const lined = sorted.length === flat.length && sorted.every((w, i) => w.text === flat[i])
  const tokens: Array<Tok> = []
  let offset = 0
  let k = 0
  segTokens.forEach((toks, segment) => {
    const seg = segments[segment]!
    const letters = toks.reduce((n, t) => n + t.length + 1, 0)
    let at = seg.start
    for (const text of toks) {
      const share = letters > 0 ? ((seg.end - seg.start) * (text.length + 1)) / letters : 0
      const w = lined ? sorted[k] : undefined
      tokens.push({ text, start: w?.start ?? at, end: w?.end ?? at + share, segment, offset })
      at += share
      offset += text.toLowerCase().length + 1
      k++
    }
  })
  const sideOf = sides(speakers, turns)
  const side = segments.map((s) => sideOf(s.speaker))
  const run: Array<number> = []
  side.forEach((s, i) => run.push(i === 0 ? 0 : run[i - 1]! + (s === side[i - 1] ? 0 : 1)))
  return { tokens, joined: tokens.map((t) => t.text.toLowerCase()).join(" "), segments, side, run, turns }
}

/** The token holding character `at` of the joined text. */
const tokenAt = (index: TranscriptIndex, at: number): number => {
  let lo = 0
  let hi = index.tokens.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (index.tokens[mid]!.offset <= at) lo = mid
    else hi = mid - 1
  }
  return lo
}

interface Located extends Moment {
  readonly from: number
  readonly to: number
  readonly segment: number
}

const round3 = (x: number) => Math.round(x * 1000) / 1000
const round2 = (x: number) => Math.round(x * 100) / 100

const momentOfTokens = (index: TranscriptIndex, from: number, to: number): Located => {
  const toks = index.tokens.slice(from, to + 1)
  const segment = toks[0]!.segment
  return {
    speaker: index.segments[segment]!.speaker,
    side: index.side[segment]!,
    start: toks[0]!.start,
    end: toks.reduce((e, t) => Math.max(e, t.end), -Infinity),
    quote: clip(toks.map((t) => t.text).join(" ")),
    from,
    to,
    segment
  }
}

/** Every place the quote is in the transcript, in time order. */
const locateAll = (index: TranscriptIndex, quote: string): Array<Located> => {
  const q = normalise(quote)
  if (q.split(" ").length < 2 || !/[\p{L}\p{N}]/u.test(q)) return []
  const out: Array<Located> = []
  for (let at = index.joined.indexOf(q); at >= 0; at = index.joined.indexOf(q, at + 1)) {
    out.push(momentOfTokens(index, tokenAt(index, at), tokenAt(index, at + q.length - 1)))
  }
  return out
}

const locate = (index: TranscriptIndex, quote: string): Located | null => locateAll(index, quote)[0] ?? null

const overlaps = (a: Moment, b: Moment) => a.speaker === b.speaker && a.start <= b.end && b.start <= a.end

/** Only the moment's own fields. */
const bare = (m: Moment): Moment => ({ speaker: m.speaker, side: m.side, start: m.start, end: m.end, quote: m.quote })

// ---------------------------------------------------------------------------------------------
// Objections: the rep's response to an added one, with the rules' thresholds

interface Sentence extends Moment {
  readonly question: boolean
  readonly words: number
}

const isWord = (t: string) => /[\p{L}\p{N}]/u.test(t)

const sentencesOfRun = (index: TranscriptIndex, segments: ReadonlyArray<number>): Array<Sentence> => {
  const out: Array<Sentence> = []
  for (const s of segments) {
    const ids = index.tokens.flatMap((t, i) => (t.segment === s ? [i] : []))
    let from = 0
    for (let i = 0; i < ids.length; i++) {
      if (!endsSentence(index.tokens[ids[i]!]!.text) && i < ids.length - 1) continue
      const m = momentOfTokens(index, ids[from]!, ids[i]!)
      const texts = index.tokens.slice(ids[from]!, ids[i]! + 1).map((t) => t.text)
      out.push({ ...bare(m), question: isQuestion(tokenize(texts.join(" "))), words: texts.filter(isWord).length })
      from = i + 1
    }
  }
  return out
}

/** The turn of `speaker` overlapping [start, end] most, if any. */
const turnOf = (turns: ReadonlyArray<Turn>, speaker: string, start: number, end: number): Turn | undefined => {
  let best: Turn | undefined
  let bestOverlap = -Infinity
  for (const t of turns) {
    if (t.speaker !== speaker) continue
    const o = Math.min(end, t.end) - Math.max(start, t.start)
    if (o > bestOverlap && o >= -0.5) {
      best = t
      bestOverlap = o
    }
  }
  return best
}

const objectionFinding = (index: TranscriptIndex, said: Located, kind: ObjectionFinding["objection"]["kind"]): ObjectionFinding => {
  const runOf = index.run[said.segment]!
  const buyerSegments = index.run.flatMap((r, i) => (r === runOf ? [i] : []))
  const repSegments = index.run.flatMap((r, i) => (r === runOf + 1 ? [i] : []))
  let response: ObjectionFinding["objection"]["response"] = "other"
  let pause: number | null = null
  let reply: Moment | null = null
  let question: Moment | null = null
  let pitch: Moment | null = null
  if (repSegments.length > 0) {
    const lastBuyer = index.segments[buyerSegments[buyerSegments.length - 1]!]!
    const firstRep = index.segments[repSegments[0]!]!
    const buyerTurn = turnOf(index.turns, lastBuyer.speaker, lastBuyer.end - 0.05, lastBuyer.end)
    const repTurn = turnOf(index.turns, firstRep.speaker, firstRep.start, firstRep.start + 0.05)
    pause = round2(Math.max(0, (repTurn?.start ?? firstRep.start) - (buyerTurn?.end ?? lastBuyer.end)))
    const answer = sentencesOfRun(index, repSegments)
    reply = answer[0] === undefined ? null : bare(answer[0])
    const start = answer[0]?.start ?? firstRep.start
    let wordsBefore = 0
    for (const s of answer) {
      if (s.start - start > PITCH_S || wordsBefore > PITCH_WORDS) break
      if (s.question) {
        question = bare(s)
        break
      }
      wordsBefore += s.words
    }
    const length = (answer[answer.length - 1]?.end ?? start) - start
    const words = answer.reduce((n, s) => n + s.words, 0)
    if (question !== null) response = "question_back"
    else if (length > PITCH_S || words > PITCH_WORDS) {
      response = "long_pitch"
      const first = index.tokens.findIndex((t) => t.segment === repSegments[0])
      const last = index.tokens.length - 1 - [...index.tokens].reverse().findIndex((t) => t.segment === repSegments[repSegments.length - 1])
      pitch = bare({ ...momentOfTokens(index, first, last), quote: clip(index.tokens.slice(first, last + 1).map((t) => t.text).join(" ")) })
    } else if (pause >= OBJECTION_PAUSE_S) response = "pause"
  }
  return {
    objection: { kind, at: round3(said.start), quote: said.quote, response, response_pause_s: pause, source: "llm" },
    said: bare(said),
    reply,
    question,
    pitch,
    confidence: null
  }
}

// ---------------------------------------------------------------------------------------------
// The merge

export interface MergeInput {
  /** The rule-based content analysis. */
  readonly content: ContentAnalysis
  /** The provider's words (for the times of added items). */
  readonly words: ReadonlyArray<Word>
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly framework: Framework
}

/** A moment an added item brought into the findings, and the dimensions whose evidence may point at it. */
interface Mark {
  readonly moment: Moment
  readonly dimensions: ReadonlyArray<DimensionName>
}

export interface Merged {
  /** The rules' findings with the verified new ones, less the rejected ones, each list in time order. */
  readonly content: ContentAnalysis
  readonly marks: ReadonlyArray<Mark>
  /** Qualification elements the LLM raised. */
  readonly elements: ReadonlyArray<string>
  readonly added_items: number
  readonly dropped_items: number
  readonly doubtful_items: number
  readonly verdicts: ReadonlyArray<typeof LlmVerdict.Type>
  readonly notes: ReadonlyArray<string>
}

/** The LLM's verdicts on the doubtful findings: the first valid one on each listed id; everything else noted. */
const readVerdicts = (doubtful: ReadonlyArray<Doubtful>, given: unknown, notes: Array<string>) => {
  const out = new Map<ObjectionFinding, { readonly verdict: "kept" | "rejected"; readonly reason: string }>()
  if (given === undefined) return out
  if (!Array.isArray(given)) {
    notes.push("verdicts ignored: not a list")
    return out
  }
  given.forEach((raw, k) => {
    const v = decodeVerdict(raw, { onExcessProperty: "ignore" })
    if (Either.isLeft(v)) {
      notes.push(`verdict ${k + 1} ignored: not of the requested shape (an id, keep or reject, a reason)`)
      return
    }
    const d = doubtful.find((x) => x.id === v.right.id)
    if (d === undefined) {
      notes.push(`verdict on "${clip(v.right.id, 40)}" ignored: no doubtful finding has that id`)
      return
    }
    if (out.has(d.finding)) {
      notes.push(`verdict ${k + 1} ignored: ${d.id} was judged before`)
      return
    }
    out.set(d.finding, { verdict: v.right.verdict === "reject" ? "rejected" : "kept", reason: clip(v.right.reason, REASON_CHARS) })
  })
  return out
}

/** Verifies the answer against the transcript and merges it with the rules' findings; Left: why it could not be read. */
export const mergeAssessment = (input: MergeInput, answer: unknown): Either.Either<Merged, string> => {
  const decoded = decodeAnswer(answer, { onExcessProperty: "ignore" })
  if (Either.isLeft(decoded)) {
    const detail = ParseResult.TreeFormatter.formatErrorSync(decoded.left).split("\n").slice(0, 4).join(" ").replace(/\s+/g, " ")
    return Either.left(`the answer does not have the requested shape: ${detail}`)
  }
  const a = decoded.right
  const { content } = input
  const f = content.findings
  const index = indexTranscript(content, input.words, input.speakers, input.speaker_turns)
  const marks: Array<Mark> = []
  let added = 0
  let dropped = 0

  // the second reader: its verdicts on the rules' doubtful objections; the rejected ones leave
  const notes: Array<string> = []
  const doubtful = doubtfulFindings(content)
  const verdictOf = readVerdicts(doubtful, a.verdicts, notes)
  const rejected = f.objections.filter((o) => verdictOf.get(o)?.verdict === "rejected")
  const verdicts = doubtful.flatMap(({ finding: o }) => {
    const v = verdictOf.get(o)
    return v === undefined ? [] : [{ kind: o.objection.kind, at: o.objection.at, quote: o.objection.quote, confidence: o.confidence!, source: "rules" as const, ...v }]
  })

  // objections: the buyer side's, one per buyer run
  const objections = f.objections
    .filter((o) => !rejected.includes(o))
    .map((o) => (verdictOf.has(o) ? { ...o, objection: { ...o.objection, source: "rules" as const, verdict: "kept" as const } } : o))
  const runsWithObjection = new Set(objections.map((o) => runAt(index, o.said.start)))
  for (const o of a.objections) {
    const said = locate(index, o.quote)
    if (said === null || said.side !== "buyer") {
      dropped++
      continue
    }
    if (rejected.some((r) => overlaps(r.said, said))) {
      notes.push(`objection "${clip(o.quote, 60)}" not added: the LLM rejected the rules' finding on the same words`)
      continue
    }
    const run = index.run[said.segment]!
    if (runsWithObjection.has(run)) continue
    runsWithObjection.add(run)
    const finding = objectionFinding(index, said, o.kind)
    objections.push(finding)
    marks.push(...[finding.said, finding.reply, finding.question, finding.pitch].flatMap((m) =>
      m === null ? [] : [{ moment: m, dimensions: ["objection_handling"] as const }]))
    added++
  }

  // pains: the buyer side's
  const pains: Array<BuyerFinding> = [...f.pains]
  for (const p of a.pains) {
    const said = locate(index, p.quote)
    if (said === null || said.side !== "buyer") {
      dropped++
      continue
    }
    if (pains.some((x) => overlaps(x, said))) continue
    const finding: BuyerFinding = { ...bare(said), numbers: [] }
    pains.push(finding)
    marks.push({ moment: finding, dimensions: ["discovery", "value"] })
    added++
  }
  pains.sort((x, y) => x.start - y.start)

  // value claims: the rep's, tied to the pain they answer when it was said before
  const claims: Array<ValueClaim> = [...f.value_claims]
  for (const v of a.value_claims) {
    const said = locate(index, v.quote)
    const painAt = v.pain === null ? [] : locateAll(index, v.pain)
    if (said === null || said.side !== "rep" || (v.pain !== null && painAt.length === 0)) {
      dropped++
      continue
    }
    if (claims.some((x) => overlaps(x, said))) continue
    const pain = [...painAt].reverse().find((p) => p.end <= said.start) ?? null
    const claim: ValueClaim = {
      ...bare(said),
      linked_to: pain === null ? null : bare(pain),
      link: pain === null ? null : "pain",
      quantified: findNumbers(tokenize(said.quote)).length > 0
    }
    claims.push(claim)
    marks.push({ moment: claim, dimensions: ["value"] })
    added++
  }
  claims.sort((x, y) => x.start - y.start)

  // next steps: dated ones only, the due phrase said with them
  const steps: Array<NextStepFinding> = [...f.next_steps]
  const mainSpeaker = (side: Side) =>
    [...input.speakers].filter((s) => (s.role === "rep") === (side === "rep") && s.role !== "unknown")
      .sort((x, y) => y.talk_time_s - x.talk_time_s || byText(x.speaker, y.speaker))[0]?.speaker ??
      index.segments.find((_, i) => index.side[i] === side)?.speaker ?? null
  for (const n of a.next_steps) {
    if (n.due === null || normalise(n.due) === "") continue
    const said = locate(index, n.quote)
    if (said === null) {
      dropped++
      continue
    }
    // the window: from the quote to the end of the other side's next segment
    const replyAt = index.segments.findIndex((_, i) => i > said.segment && index.side[i] !== said.side)
    const lastToken = replyAt < 0
      ? index.tokens.length - 1
      : index.tokens.length - 1 - [...index.tokens].reverse().findIndex((t) => t.segment === replyAt)
    const window = index.tokens.slice(said.from, lastToken + 1).map((t) => t.text.toLowerCase()).join(" ")
    if (!window.includes(normalise(n.due))) {
      dropped++
      continue
    }
    if (steps.some((x) => overlaps(x.said, said) || (x.confirmation !== null && overlaps(x.confirmation, said)))) continue
    const owner = n.owner === "both" ? said.speaker : said.side === n.owner ? said.speaker : mainSpeaker(n.owner)
    const reply = replyAt === said.segment + 1 ? index.segments[replyAt]! : null
    const confirmation = reply !== null && isAgreement(tokenize(reply.text))
      ? bare({ ...momentOfTokens(index, index.tokens.findIndex((t) => t.segment === replyAt), lastToken), quote: clip(reply.text) })
      : null
    const step: NextStepFinding = {
      step: { at: round3(said.start), quote: said.quote, owner, due: formatDue(findWhen(tokenize(n.due))) ?? n.due.trim(), source: "llm" },
      said: bare(said),
      confirmation
    }
    steps.push(step)
    marks.push(...[step.said, step.confirmation].flatMap((m) => (m === null ? [] : [{ moment: m, dimensions: ["next_steps"] as const }])))
    added++
  }
  steps.sort((x, y) => x.said.start - y.said.start)
  objections.sort((x, y) => x.said.start - y.said.start)

  // qualification: an element the LLM scores higher than the rules, with its quote
  const allowed = new Set<string>(FRAMEWORK_ELEMENTS[input.framework])
  const raised: Array<string> = []
  const elements = content.qualification.elements.map((e) => ({ ...e }))
  for (const q of a.qualification) {
    if (!allowed.has(q.element)) {
      dropped++
      continue
    }
    if (q.score === 0) continue
    const said = locate(index, q.quote)
    if (said === null) {
      dropped++
      continue
    }
    const at = elements.findIndex((e) => e.element === q.element)
    if (at < 0 || elements[at]!.score >= q.score) continue
    elements[at] = {
      element: q.element,
      score: q.score,
      evidence: { dimension: "qualification", start: round3(said.start), end: round3(said.end), speaker: said.speaker, quote: said.quote, effect: q.score, source: "llm" }
    }
    if (!raised.includes(q.element)) {
      raised.push(q.element)
      added++
    }
  }
  const qualification: QualificationResult = {
    framework: content.qualification.framework,
    elements: elements.map((e) => (e.evidence === null || e.evidence.source !== undefined ? e : { ...e, evidence: { ...e.evidence, source: "rules" as const } }))
  }

  return Either.right({
    content: {
      ...content,
      qualification,
      objections: objections.map((o) => o.objection),
      next_steps: steps.map((s) => s.step),
      findings: { ...f, pains, value_claims: claims, objections, next_steps: steps }
    },
    marks,
    elements: raised,
    added_items: added,
    dropped_items: dropped,
    doubtful_items: doubtful.length,
    verdicts,
    notes
  })
}

/** The run of the segment at time t (for a rules objection whose quote was clipped). */
const runAt = (index: TranscriptIndex, t: number): number => {
  const i = index.segments.findIndex((s) => s.start <= t + 0.002 && t <= s.end + 0.002)
  return i < 0 ? -1 : index.run[i]!
}

// ---------------------------------------------------------------------------------------------
// Rescoring

export interface AssistInput extends MergeInput {
  readonly metrics: Metrics
  readonly duration_s: number
  /** The rule-based scoring of the same call. */
  readonly rules: ScoredCall
}

export interface Assisted {
  /** The content behind the result: merged, or the rules' own when the LLM gave nothing. */
  readonly content: ContentAnalysis
  readonly scored: ScoredCall
  readonly llm: LlmAssistanceResult
}

const isMarked = (e: EvidenceItem, marks: ReadonlyArray<Mark>) =>
  marks.some((m) =>
    m.dimensions.includes(e.dimension as DimensionName) && m.moment.quote === e.quote && m.moment.speaker === e.speaker &&
    Math.abs(round3(m.moment.start) - e.start) < 0.002
  )

/**
 * The result with the LLM's answer (or its failure): merged, rescored by the same rules, each
 * evidence item with its source; on any failure the rules' result unchanged, with the reason.
 */
export const applyAssist = (
  input: AssistInput,
  llm: { readonly provider: string; readonly model: string },
  outcome: Either.Either<unknown, AssistFailure>
): Assisted => {
  const failed = (error: string): Assisted => ({
    content: input.content,
    scored: input.rules,
    llm: {
      ...llm,
      assisted_dimensions: [],
      added_items: 0,
      dropped_items: 0,
      error,
      doubtful_items: doubtfulFindings(input.content).length,
      verdicts: [],
      notes: []
    }
  })
  if (Either.isLeft(outcome)) return failed(outcome.left.message)
  const merged = mergeAssessment(input, outcome.right)
  if (Either.isLeft(merged)) return failed(merged.left)
  const m = merged.right
  const scored = scoreCall({
    metrics: input.metrics,
    speaker_turns: input.speaker_turns,
    speakers: input.speakers,
    duration_s: input.duration_s,
    content: m.content
  })
  const evidence = scored.evidence.map((e): EvidenceItem => ({ ...e, source: isMarked(e, m.marks) ? "llm" : "rules" }))
  const before = new Map(input.rules.scorecard.dimensions.map((d) => [d.dimension, d]))
  const assisted: Array<string> = DIMENSIONS.filter((d) => {
    const was = before.get(d)
    const now = scored.scorecard.dimensions.find((x) => x.dimension === d)
    return evidence.some((e) => e.dimension === d && e.source === "llm") || was?.score !== now?.score || was?.assessed !== now?.assessed
  })
  if (m.elements.length > 0) assisted.push("qualification")
  return {
    content: m.content,
    scored: { scorecard: scored.scorecard, evidence },
    llm: {
      ...llm,
      assisted_dimensions: assisted,
      added_items: m.added_items,
      dropped_items: m.dropped_items,
      error: null,
      doubtful_items: m.doubtful_items,
      verdicts: m.verdicts,
      notes: m.notes
    }
  }
}
