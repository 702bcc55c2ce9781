/**
 * The report's labels: dimensions, speech-to-text providers, qualification elements and their
 * levels, objection kinds and the rep's responses, in words.
 */
import { DIMENSION_LABELS } from "../scoring/Dimensions.js"
import type { ObjectionItem } from "../Types.js"

/** `record[key]` when the key is the record's own (never an inherited `constructor` or `__proto__`). */
export const lookup = <V>(record: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined

export const dimensionLabel = (dimension: string): string => lookup(DIMENSION_LABELS, dimension) ?? dimension

export const PROVIDER_LABELS: Record<string, string> = { deepgram: "Deepgram", assemblyai: "AssemblyAI", openai: "OpenAI" }

/** The qualification elements of MEDDPICC, BANT and SPIN (wire names), with what each one asks. */
const ELEMENTS: Record<string, { readonly label: string; readonly hint: string }> = {
  metrics: { label: "Metrics", hint: "the buyer's numbers: cost, targets, gains" },
  economic_buyer: { label: "Economic buyer", hint: "who signs, and whether they are involved" },
  decision_criteria: { label: "Decision criteria", hint: "what the choice will be judged on" },
  decision_process: { label: "Decision process", hint: "the steps and people to a decision" },
  paper_process: { label: "Paper process", hint: "procurement, legal and signature" },
  identify_pain: { label: "Identify pain", hint: "the problem and what it costs" },
  champion: { label: "Champion", hint: "someone inside who sells for you" },
  competition: { label: "Competition", hint: "the alternatives in play" },
  budget: { label: "Budget", hint: "money set aside, and how much" },
  authority: { label: "Authority", hint: "who decides" },
  need: { label: "Need", hint: "the problem to solve" },
  timeline: { label: "Timeline", hint: "when a decision is due" },
  situation: { label: "Situation", hint: "the buyer's current state" },
  problem: { label: "Problem", hint: "what is not working" },
  implication: { label: "Implication", hint: "what the problem leads to" },
  need_payoff: { label: "Need-payoff", hint: "the value of solving it" }
}

/** "economic_buyer" → Economic buyer and its hint; an unknown element in words, without a hint. */
export const elementOf = (element: string): { readonly label: string; readonly hint: string | null } => {
  const known = lookup(ELEMENTS, element.trim().toLowerCase().replace(/[\s-]+/g, "_"))
  if (known) return known
  const words = element.replace(/_/g, " ").trim()
  return { label: words.length > 0 ? words.charAt(0).toUpperCase() + words.slice(1) : "—", hint: null }
}

export const LEVELS = [
  { cls: "none", label: "Not covered" },
  { cls: "vague", label: "Vague" },
  { cls: "specific", label: "Specific" }
] as const

export const OBJECTION_LABELS: Record<ObjectionItem["kind"], string> = {
  price: "Price",
  budget: "Budget",
  timing: "Timing",
  authority: "Authority",
  need: "Need",
  competitor: "Competitor"
}

export const RESPONSES: Record<ObjectionItem["response"], { readonly label: string; readonly tone: "ok" | "warn" | "bad" | "neutral"; readonly hint: string }> = {
  pause: { label: "Paused, then answered", tone: "ok", hint: "let the objection land before answering" },
  question_back: { label: "Asked a question back", tone: "ok", hint: "explored the objection before answering it" },
  long_pitch: { label: "Answered with a long pitch", tone: "bad", hint: "talked over the objection" },
  other: { label: "Other response", tone: "neutral", hint: "" }
}
