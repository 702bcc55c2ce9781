/**
 * A large answer written as JSON as it is, without the platform's encoding pass over it.
 *
 * `HttpApiBuilder` encodes every answer with its declared schema: it walks the whole value, checks
 * each refinement again and copies every array and object. For an answer whose schema changes
 * nothing on the wire (its type is already its encoded form: no transformation, no renamed key)
 * that pass only repeats the checks of a value the service itself built to the type. On the
 * trends' answer (1 MB at 100,000 calls: ~40,000 call ids, each `Text` checked, each array parsed
 * element by element) it was about a sixth of a 6-week read.
 *
 * Only for such schemas: `Type extends Encoded` is required at compile time (a `Date` written as a
 * string, a number from a string, a renamed key do not compile). The value must hold the declared
 * fields only (the encoding pass would have dropped any other), so the view builds it field by
 * field. The answer's schema still documents it (OpenAPI), the typed client still decodes it with
 * that schema, and Trends.test decodes both trends doors' answers with it, extra fields refused.
 *
 * The text is turned into bytes by `Buffer.from`, not by the platform's `TextEncoder` (what
 * `HttpServerResponse.json`/`text` use): on Node 20, `TextEncoder.encode` of the 1.8 MB answer of
 * a year by month took ~5 ms where `Buffer.from` takes ~0.5 ms (the same UTF-8 bytes).
 *
 * And it is written in parts (`jsonBytes`): the value's first two levels walked here, each value
 * below them stringified alone and its text written straight into the answer's bytes. The same
 * bytes as `JSON.stringify`, but no string of the whole answer: V8 puts a string that large in its
 * large-object space, old at once, freed only by a full collection; in parts, the strings die young.
 * The parts are written into 64 kB buffers outside the heap (`Buffer.write`), not gathered into a
 * string first: joining them made a second copy of every character in the heap (the joined string
 * flattened when it was turned into bytes), ~2 MB a read for a year of trends.
 */
import { HttpServerResponse } from "@effect/platform"
import type { Schema } from "effect"

/** The size of the buffers the text is written into (a part longer than that gets a buffer of its own size). */
const CHUNK_BYTES = 65_536
/** The most UTF-8 bytes one UTF-16 code unit becomes (a pair of surrogates, two units, becomes 4). */
const MAX_BYTES_PER_UNIT = 3

/** `JSON.stringify(value)` as UTF-8 bytes, made in parts (see above); the levels below `depth` stringified whole. */
export const jsonBytes = (value: unknown, depth = 2): Buffer => {
  const chunks: Array<Buffer> = []
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  let at = 0
  let total = 0
  const write = (text: string) => {
    const most = text.length * MAX_BYTES_PER_UNIT
    if (at + most > chunk.length) {
      if (at > 0) chunks.push(chunk.subarray(0, at))
      total += at
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most))
      at = 0
    }
    at += chunk.write(text, at, "utf8")
  }
  /** What JSON.stringify writes for `v` (undefined where it leaves it out: undefined, a function, a symbol). */
  const walk = (v: unknown, level: number): boolean => {
    if (level >= depth || v === null || typeof v !== "object" || typeof (v as { toJSON?: unknown }).toJSON === "function") {
      const text = JSON.stringify(v)
      if (text === undefined) return false
      write(text)
      return true
    }
    if (Array.isArray(v)) {
      write("[")
      for (let i = 0; i < v.length; i++) {
        if (i > 0) write(",")
        if (!walk(v[i], level + 1)) write("null")
      }
      write("]")
      return true
    }
    write("{")
    let first = true
    for (const key of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[key]
      if (x === undefined || typeof x === "function" || typeof x === "symbol") continue
      write(`${first ? "" : ","}${JSON.stringify(key)}:`)
      first = false
      walk(x, level + 1)
    }
    write("}")
    return true
  }
  if (!walk(value, 0)) throw new TypeError("wireJson: the value has no JSON text")
  if (chunks.length === 0) return chunk.subarray(0, at)
  chunks.push(chunk.subarray(0, at))
  return Buffer.concat(chunks, total + at)
}

export const wireJson = <S extends Schema.Schema.Any>(
  _schema: S,
  value: Schema.Schema.Type<S> extends Schema.Schema.Encoded<S> ? Schema.Schema.Type<S> : never
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(jsonBytes(value), { contentType: "application/json" })
