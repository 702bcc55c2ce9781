/**
 * What a request's `Range` header asks of a file (RFC 9110 §14.1.2, §14.2), for the player's
 * `GET /v1/client-portal/calls/{call_id}/audio`. One range of bytes is served: `bytes=a-b`,
 * `bytes=a-` and `bytes=-n` (the last n bytes); a last position past the end is the end. A range
 * that starts past the end (or asks the last 0 bytes) cannot be satisfied (416). Anything else, a
 * header the server may ignore, is ignored (the whole file, 200): another unit, a malformed range,
 * a last position before the first, several ranges (which would need `multipart/byteranges`; a
 * player asks one).
 */

export type RangeAsked =
  | { readonly _tag: "Whole" }
  | { readonly _tag: "Span"; readonly start: number; readonly end: number }
  | { readonly _tag: "Unsatisfiable" }

const WHOLE: RangeAsked = { _tag: "Whole" }
const UNSATISFIABLE: RangeAsked = { _tag: "Unsatisfiable" }

const BYTES = /^bytes[ \t]*=[ \t]*(.*)$/i
const FROM_TO = /^(\d+)-(\d*)$/
const SUFFIX = /^-(\d+)$/

/** The range `header` asks of a file of `size` bytes. */
export const rangeOf = (header: string | undefined, size: number): RangeAsked => {
  if (header === undefined) return WHOLE
  const set = BYTES.exec(header.trim())
  if (set === null) return WHOLE
  // empty list elements are allowed (RFC 9110 §5.6.1.2)
  const specs = set[1]!.split(",").map((spec) => spec.trim()).filter((spec) => spec !== "")
  if (specs.length !== 1) return WHOLE
  const spec = specs[0]!
  const fromTo = FROM_TO.exec(spec)
  if (fromTo !== null) {
    const first = Number(fromTo[1])
    const last = fromTo[2] === "" ? Number.POSITIVE_INFINITY : Number(fromTo[2])
    if (last < first) return WHOLE
    if (first >= size) return UNSATISFIABLE
    return { _tag: "Span", start: first, end: Math.min(last, size - 1) }
  }
  const suffix = SUFFIX.exec(spec)
  if (suffix !== null) {
    const length = Number(suffix[1])
    if (length === 0 || size === 0) return UNSATISFIABLE
    return { _tag: "Span", start: Math.max(0, size - length), end: size - 1 }
  }
  return WHOLE
}
