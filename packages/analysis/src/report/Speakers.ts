/**
 * Speakers and colours: one lane per speaker (the rep first, then the buyer side, then unknown
 * roles), with its colour, talk time, share of talk and role confidence; and a role in words.
 */
import type { ReportInput } from "./Report.js"

const REP_COLOURS = ["#4f46e5", "#7c3aed", "#2563eb"]
const BUYER_COLOURS = ["#0d9488", "#d97706", "#0891b2", "#db2777", "#65a30d"]
export const UNKNOWN_COLOUR = "#64748b"

export interface Lane {
  readonly speaker: string
  readonly role: "rep" | "buyer" | "unknown"
  readonly colour: string
  readonly talk_s: number
  readonly share: number | null
  readonly confidence: number | null
}

const ROLE_ORDER = { rep: 0, buyer: 1, unknown: 2 } as const

export const lanesOf = (input: ReportInput): Array<Lane> => {
  const bySpeaker = new Map<string, { role: Lane["role"]; talk: number; share: number | null; confidence: number | null }>()
  for (const s of input.speakers) {
    bySpeaker.set(s.speaker, { role: s.role, talk: s.talk_time_s, share: s.talk_share, confidence: s.role_confidence })
  }
  const talk = new Map<string, number>()
  for (const t of input.speaker_turns) {
    talk.set(t.speaker, (talk.get(t.speaker) ?? 0) + Math.max(0, t.end - t.start))
    if (!bySpeaker.has(t.speaker)) bySpeaker.set(t.speaker, { role: t.role, talk: 0, share: null, confidence: null })
    else if (bySpeaker.get(t.speaker)!.role === "unknown" && t.role !== "unknown") bySpeaker.get(t.speaker)!.role = t.role
  }
  const entries = [...bySpeaker.entries()].map(([speaker, v]) => ({
    speaker,
    role: v.role,
    talk_s: v.talk > 0 ? v.talk : talk.get(speaker) ?? 0,
    share: v.share,
    confidence: v.confidence
  }))
  entries.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || b.talk_s - a.talk_s || (a.speaker < b.speaker ? -1 : 1))
  const counters = { rep: 0, buyer: 0, unknown: 0 }
  return entries.map((x) => {
    const k = counters[x.role]++
    const colour = x.role === "rep"
      ? REP_COLOURS[k % REP_COLOURS.length]!
      : x.role === "buyer"
      ? BUYER_COLOURS[k % BUYER_COLOURS.length]!
      : UNKNOWN_COLOUR
    return { ...x, colour }
  })
}

export const roleLabel = (role: Lane["role"]) => (role === "rep" ? "Rep" : role === "buyer" ? "Buyer" : "Unknown role")
