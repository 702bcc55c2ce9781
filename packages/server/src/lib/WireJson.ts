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
 */
import { HttpServerResponse } from "@effect/platform"
import type { Schema } from "effect"

export const wireJson = <S extends Schema.Schema.Any>(
  _schema: S,
  value: Schema.Schema.Type<S> extends Schema.Schema.Encoded<S> ? Schema.Schema.Type<S> : never
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(Buffer.from(JSON.stringify(value), "utf8"), { contentType: "application/json" })
