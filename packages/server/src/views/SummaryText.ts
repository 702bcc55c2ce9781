/**
 * A call's summary (`CallAnalysis.summary`, docs/method.md "Summary") as plain text, for the doors
 * that write words rather than JSON: the CRM note and the chat. Each item's sentence, then its
 * quotes, each with its speaker and time, as said.
 */
import type { CallSummary } from "@callsight/api-spec"

const PARTS = [["needs", "Needs"], ["agreed", "Agreed"], ["risks", "Risks"]] as const

/** `m:ss` of seconds from the start of the call. */
export const clockOf = (seconds: number): string => {
  const s = Math.max(0, Math.floor(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`
}

/** One line per item: `Needs: <sentence> “<quote>” (S2, 0:16)`; a part with no item reads "none". */
export const summaryLines = (summary: typeof CallSummary.Type): Array<string> =>
  PARTS.map(([key, label]) => {
    const items = summary[key]
    if (items.length === 0) return `${label}: none found.`
    return `${label}: ${
      items.map((i) => [i.text, ...i.quotes.map((q) => `“${q.quote}” (${q.speaker}, ${clockOf(q.start)})`)].join(" ")).join(" | ")
    }`
  })
