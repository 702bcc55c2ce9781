/**
 * The moment: words someone said, and when, on which side; what every finding and every piece of
 * evidence points at. Its quote is clipped to about 200 characters (`clip`).
 */

export type Side = "rep" | "buyer"

/** Words someone said, and when: what evidence points at. */
export interface Moment {
  readonly speaker: string
  readonly side: Side
  readonly start: number
  readonly end: number
  /** The words as said, clipped to about 200 characters. */
  readonly quote: string
}

const QUOTE_CHARS = 200

/** Clip to about `max` characters at a word boundary. */
export const clip = (text: string, max = QUOTE_CHARS): string => {
  if (text.length <= max) return text
  const cut = text.lastIndexOf(" ", max - 1)
  return `${text.slice(0, cut > max / 2 ? cut : max - 1).replace(/[,;:]$/, "")}…`
}

/** Only the moment's own fields (a finding may carry more). */
export const stripMoment = (m: Moment): Moment => ({ speaker: m.speaker, side: m.side, start: m.start, end: m.end, quote: m.quote })
