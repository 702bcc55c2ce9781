/**
 * The call's summary (docs/method.md, "Summary"): what the buyer needs, what was agreed, the open
 * risks; each item one short sentence and the words it rests on, quoted verbatim from the
 * transcript with their speaker and time. Extractive and deterministic: written from what the
 * rules (and a verified LLM) already found, never from words of its own. With the tenant's LLM,
 * its sentences may replace a part's, each of its quotes found in the transcript first (`writtenSummary`).
 *
 * Decisions, in one place:
 * - **Quotes** are substrings of one transcript segment's `text`, exactly: a finding's quote (its
 *   sentence, clipped with "…" past 200 characters) is looked up without the ellipsis in the
 *   segments of its speaker, nearest its time, and cut at a word under 160 characters (no ellipsis
 *   added, so it stays a substring). A finding whose words are not found gives no quote; an item
 *   with no quote is left out (but "no next step", which may have none).
 * - **Needs**: the buyer side's pains and business figures, three at most, those with a figure
 *   first, then the earliest; shown in time order.
 * - **Agreed**: the dated next steps, five at most, each with its owner's side and due, and whether
 *   the other side agreed on the call.
 * - **Risks**, five at most, in this order: no dated next step (quoting the rep's last sentence);
 *   the open objections (one is open unless the buyer side's first sentence after the rep's answer
 *   agrees, "okay, that makes sense", with no "but"; a kind raised again is listed once, where last
 *   raised); a next step with no owner named.
 */
import type { CallSummary, SummaryItem, SummaryQuote } from "@callsight/api-spec"
import { Either, Schema } from "effect"
import type { ContentAnalysis } from "./Content.js"
import type { NextStepFinding } from "./findings/NextSteps.js"
import type { ObjectionFinding } from "./findings/Objections.js"
import type { BuyerFinding, Quantity } from "./findings/Pains.js"
import { isAgreement } from "./lexicon/Commitments.js"
import type { Moment, Side } from "./Moment.js"
import { sentencesOfText } from "./Sentences.js"
import type { SpeakerSummary, TranscriptSegmentItem, Turn } from "../Types.js"

export type Summary = typeof CallSummary.Type
type Item = typeof SummaryItem.Type
type Quote = typeof SummaryQuote.Type

/** The longest quote kept, in characters (cut at a word, no ellipsis: the quote stays a substring). */
const QUOTE_CHARS = 160
const MAX_NEEDS = 3
const MAX_AGREED = 5
const MAX_RISKS = 5

const round2 = (x: number) => Math.round(x * 100) / 100

/** Cut at the last word boundary under `QUOTE_CHARS`. */
const shorten = (quote: string): string => {
  if (quote.length <= QUOTE_CHARS) return quote
  const cut = quote.lastIndexOf(" ", QUOTE_CHARS)
  return (cut > QUOTE_CHARS / 2 ? quote.slice(0, cut) : quote.slice(0, QUOTE_CHARS)).replace(/[\s,;:]+$/, "")
}

const distance = (seg: TranscriptSegmentItem, t: number) => (t < seg.start ? seg.start - t : t > seg.end ? t - seg.end : 0)

/**
 * The quote of a moment, exactly as its transcript segment has it: its words without a clipping
 * ellipsis, in the segment of its speaker nearest its time (any speaker's when its own has none).
 */
export const quoteOf = (transcript: ReadonlyArray<TranscriptSegmentItem>, m: Pick<Moment, "speaker" | "start" | "quote">): Quote | null => {
  const words = m.quote.replace(/…$/, "").trim()
  if (words.length === 0) return null
  const holding = transcript.filter((s) => s.text.includes(words))
  const own = holding.filter((s) => s.speaker === m.speaker)
  const seg = [...(own.length > 0 ? own : holding)].sort((a, b) => distance(a, m.start) - distance(b, m.start) || a.start - b.start)[0]
  if (seg === undefined) return null
  return { speaker: seg.speaker, start: round2(Math.min(Math.max(m.start, seg.start), seg.end)), quote: shorten(words) }
}

/** Each speaker's side, as the content analysis reads it: the speaker's role, else its turns'; everyone but the rep the buyer side. */
const sideOf = (speakers: ReadonlyArray<SpeakerSummary>, turns: ReadonlyArray<Turn>) => (speaker: string): Side => {
  const role = speakers.find((s) => s.speaker === speaker)?.role
  const fromTurns = turns.find((t) => t.speaker === speaker && t.role !== "unknown")?.role
  return (role !== undefined && role !== "unknown" ? role : fromTurns) === "rep" ? "rep" : "buyer"
}

const UNIT_SIGNS: Record<string, string> = { percent: "%", dollars: "$", euros: "€", pounds: "£" }

const figure = (q: Quantity): string => {
  const value = q.value.toLocaleString("en-US", { maximumFractionDigits: 2 })
  if (q.unit === null) return value
  const sign = UNIT_SIGNS[q.unit]
  return sign === "%" ? `${value} %` : sign !== undefined ? `${sign}${value}` : `${value} ${q.unit}`
}

const figures = (numbers: ReadonlyArray<Quantity>) => [...new Set(numbers.map(figure))].slice(0, 3).join(", ")

const item = (kind: Item["kind"], text: string, quotes: ReadonlyArray<Quote | null>): Item | null => {
  const found = quotes.filter((q): q is Quote => q !== null)
  return found.length === 0 && kind !== "no_next_step" ? null : { kind, text, quotes: found, source: "rules" }
}

const present = <A>(xs: ReadonlyArray<A | null>): Array<A> => xs.filter((x): x is A => x !== null)

const needsOf = (content: ContentAnalysis): Array<Item> => {
  const f = content.findings
  const pains = f.pains.map((p) => ({ finding: p, kind: "pain" as const }))
  const numbers = f.numbers
    .filter((n) => !f.pains.some((p) => p.speaker === n.speaker && p.start <= n.end && n.start <= p.end))
    .map((n) => ({ finding: n, kind: "business_number" as const }))
  const chosen = [...pains, ...numbers]
    .sort((a, b) => Number(b.finding.numbers.length > 0) - Number(a.finding.numbers.length > 0) || a.finding.start - b.finding.start)
    .slice(0, MAX_NEEDS)
    .sort((a, b) => a.finding.start - b.finding.start)
  const text = ({ finding, kind }: { finding: BuyerFinding; kind: "pain" | "business_number" }) =>
    kind === "business_number"
      ? `The buyer side gave a figure of their business: ${figures(finding.numbers)}.`
      : finding.numbers.length > 0
      ? `The buyer side stated a problem and put a figure on it: ${figures(finding.numbers)}.`
      : "The buyer side stated a problem."
  return present(chosen.map((c) => item(c.kind, text(c), [quoteOf(content.transcript, c.finding)])))
}

const sideName = (side: Side) => (side === "rep" ? "the rep" : "the buyer side")

const agreedOf = (content: ContentAnalysis, side: (speaker: string) => Side): Array<Item> =>
  present(content.findings.next_steps.slice(0, MAX_AGREED).map((n: NextStepFinding) => {
    const owner = n.step.owner === null ? null : side(n.step.owner)
    const due = n.step.due === null ? "" : `, due ${n.step.due}`
    const who = owner === null ? "A next step, no owner named" : `A next step for ${sideName(owner)}`
    const agreed = n.confirmation === null ? "" : `; ${sideName(side(n.confirmation.speaker))} agreed`
    return item("next_step", `${who}${due}${agreed}.`, [
      quoteOf(content.transcript, n.said),
      n.confirmation === null ? null : quoteOf(content.transcript, n.confirmation)
    ])
  }))

const RESPONSE_WORDS: Record<string, string> = {
  question_back: "asked a question back",
  long_pitch: "answered with a long pitch",
  pause: "paused, then answered",
  other: "answered"
}

const CONTRAST = /\b(but|however|still|though|although|yet)\b/i

/** Whether the buyer side's first words after the rep's answer agree, without a "but": the objection was settled on the call. */
const settled = (o: ObjectionFinding, transcript: ReadonlyArray<TranscriptSegmentItem>, side: (speaker: string) => Side): boolean => {
  const rep = transcript.findIndex((s) => s.start >= o.said.end - 0.01 && side(s.speaker) === "rep")
  if (rep < 0) return false
  const buyer = transcript.findIndex((s, i) => i > rep && side(s.speaker) === "buyer")
  const first = buyer < 0 ? undefined : sentencesOfText(transcript[buyer]!.text)[0]
  // "okay, but…" takes back what it grants
  return first !== undefined && isAgreement(first) && !CONTRAST.test(first)
}

const risksOf = (content: ContentAnalysis, side: (speaker: string) => Side): Array<Item> => {
  const f = content.findings
  // a kind raised again is open at its last raising (listed once, there)
  const open = f.objections.filter((o, i) =>
    !f.objections.slice(i + 1).some((later) => later.objection.kind === o.objection.kind) && !settled(o, content.transcript, side))
  // the call's own risk first: no dated next step (the rep's last words quoted), then the open objections, then steps nobody owns
  const out: Array<Item | null> = f.next_steps.length > 0 ? [] : [
    item("no_next_step", "No dated next step was agreed: the call ended without a day and an owner for what happens next.", [
      f.last_rep_sentence === null ? null : quoteOf(content.transcript, f.last_rep_sentence)
    ])
  ]
  for (const o of open) {
    const answer = o.reply === null ? "the rep never answered it" : `the rep ${RESPONSE_WORDS[o.objection.response] ?? "answered"}`
    out.push(item("objection", `The buyer side's ${o.objection.kind} objection was left open (${answer}; they did not agree after it).`, [
      quoteOf(content.transcript, o.said)
    ]))
  }
  for (const n of f.next_steps) {
    if (n.step.owner === null) out.push(item("no_owner", "A next step has no owner named.", [quoteOf(content.transcript, n.said)]))
  }
  return present(out).slice(0, MAX_RISKS)
}

/** The extractive summary of a call's content; null without words. */
export const summarize = (
  content: ContentAnalysis,
  speakers: ReadonlyArray<SpeakerSummary>,
  turns: ReadonlyArray<Turn>
): Summary | null => {
  if (content.transcript.length === 0) return null
  const side = sideOf(speakers, turns)
  return { needs: needsOf(content), agreed: agreedOf(content, side), risks: risksOf(content, side), source: "rules" }
}

// ---------------------------------------------------------------------------------------------
// Written by the tenant's LLM

const PART_KINDS = { needs: "need", agreed: "agreement", risks: "risk" } as const
type Part = keyof typeof PART_KINDS
const PARTS: ReadonlyArray<Part> = ["needs", "agreed", "risks"]

/** The longest sentence kept from the LLM (characters). */
const TEXT_CHARS = 300

const WrittenItem = Schema.Struct({ text: Schema.Trim.pipe(Schema.nonEmptyString()), quotes: Schema.Array(Schema.String) })
const decodeItem = Schema.decodeUnknownEither(WrittenItem)

const normalise = (text: string): string => text.trim().split(/\s+/).filter((t) => t.length > 0).join(" ").toLowerCase()

/**
 * The words of `quote` as one segment has them: found with whitespace collapsed and case folded
 * (nothing else: punctuation counts), at least two words; the segment's own characters are
 * returned, so the quote is a substring of its text. The earliest segment holding them wins.
 */
export const findQuote = (transcript: ReadonlyArray<TranscriptSegmentItem>, quote: string): Quote | null => {
  const q = normalise(quote)
  if (q.split(" ").length < 2 || !/[\p{L}\p{N}]/u.test(q)) return null
  for (const seg of transcript) {
    const collapsed = seg.text.trim().split(/\s+/).join(" ")
    const lower = collapsed.toLowerCase()
    if (lower.length !== collapsed.length) continue
    const at = lower.indexOf(q)
    if (at < 0) continue
    const exact = collapsed.slice(at, at + q.length)
    if (!seg.text.includes(exact)) continue
    // its time: spread over the segment by characters, as the words' own times are not kept
    const start = seg.start + ((seg.end - seg.start) * at) / Math.max(1, collapsed.length)
    return { speaker: seg.speaker, start: round2(start), quote: shorten(exact) }
  }
  return null
}

/**
 * The summary with the LLM's sentences where they hold: the answer's `summary` (`{needs, agreed,
 * risks}`, each a list of `{text, quotes}`); an item is kept when it has a sentence and every quote
 * it cites is found in one transcript segment (`findQuote`), at least one. A part with a kept item
 * is the LLM's (`source: "llm"`), a part with none keeps the rules' items. `dropped`: the items
 * left out.
 */
export const writtenSummary = (
  extractive: Summary,
  answer: unknown,
  transcript: ReadonlyArray<TranscriptSegmentItem>
): { readonly summary: Summary; readonly dropped: number } => {
  if (typeof answer !== "object" || answer === null) return { summary: extractive, dropped: 0 }
  let dropped = 0
  const out: Record<Part, ReadonlyArray<Item>> = { needs: extractive.needs, agreed: extractive.agreed, risks: extractive.risks }
  let written = false
  for (const part of PARTS) {
    const given = (answer as Record<string, unknown>)[part]
    if (!Array.isArray(given)) continue
    const kept: Array<Item> = []
    for (const raw of given) {
      const decoded = decodeItem(raw, { onExcessProperty: "ignore" })
      if (Either.isLeft(decoded)) {
        dropped++
        continue
      }
      const quotes = decoded.right.quotes.map((q) => findQuote(transcript, q))
      if (quotes.length === 0 || quotes.some((q) => q === null)) {
        dropped++
        continue
      }
      const text = decoded.right.text.length > TEXT_CHARS ? `${shorten(decoded.right.text)}…` : decoded.right.text
      kept.push({ kind: PART_KINDS[part], text, quotes: quotes as Array<Quote>, source: "llm" })
    }
    const limit = part === "needs" ? MAX_NEEDS : part === "agreed" ? MAX_AGREED : MAX_RISKS
    if (kept.length > 0) {
      out[part] = kept.slice(0, limit)
      written = true
    }
  }
  return { summary: { ...out, source: written ? "llm" : "rules" }, dropped }
}
