/**
 * What is checked of a request before its operation decodes it, from what the declaration says of
 * the operation (EndpointIndex):
 * - a write authenticated by the session cookie, sent from another site (`Origin`), is 403;
 * - a JSON operation takes `application/json` only (415), nested at most MAX_JSON_DEPTH deep (422);
 * - the upload takes `multipart/form-data` with a boundary (415, 422) and a body (422).
 *
 * Without it the platform (HttpApiBuilder's `requestPayload`) decodes a urlencoded or multipart
 * body into a JSON payload too, turns a multipart body without a boundary into a defect (500),
 * never answers a multipart body that ends before its first part (multipasta), and overflows the
 * stack formatting the 422 of a deeply nested body (500).
 */
import { Forbidden, UnsupportedMediaType, ValidationFailed } from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerRequest, Multipart } from "@effect/platform"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Option, Stream } from "effect"
import { AppConfig } from "../config.js"
import { type EndpointInfo, endpointOf } from "./EndpointIndex.js"

/** Deeper bodies are refused: the declared ones are a few levels deep. */
export const MAX_JSON_DEPTH = 64

const bodyProblem = (msg: string, type = "value_error") => new ValidationFailed({ detail: [{ loc: ["body"], msg, type }] })

/** `type/subtype` and the parameters of a Content-Type header, lower-cased (values kept). */
const parseContentType = (header: string | undefined) => {
  if (header === undefined || header.trim() === "") return undefined
  const [essence, ...rest] = header.split(";")
  const parameters = new Map<string, string>()
  for (const part of rest) {
    const eq = part.indexOf("=")
    if (eq > 0) parameters.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1"))
  }
  return { essence: essence.trim().toLowerCase(), parameters }
}

/** The nesting depth of a JSON text, counted without parsing it (brackets inside strings skipped). */
const jsonDepth = (text: string, limit: number): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth
      if (max > limit) return max
    } else if (c === 125 || c === 93) depth--
  }
  return max
}

const hasBody = (request: HttpServerRequest.HttpServerRequest) => {
  const length = request.headers["content-length"]
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length.trim() !== "0")
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"])

const checkOrigin = (request: HttpServerRequest.HttpServerRequest, ownOrigins: ReadonlySet<string>, trustProxy: boolean) => {
  const origin = request.headers["origin"]
  if (origin !== undefined) {
    const host = (trustProxy ? request.headers["x-forwarded-host"]?.split(",")[0]?.trim() : undefined) ?? request.headers["host"]
    let allowed = ownOrigins.has(origin.toLowerCase())
    if (!allowed && origin !== "null" && host !== undefined) {
      try {
        allowed = new URL(origin).host === host.toLowerCase()
      } catch {
        allowed = false
      }
    }
    return allowed ? Effect.void : Effect.fail(new Forbidden({ message: "cross-site request refused: the Origin is not this service" }))
  }
  // No Origin (not a browser, or an old one): a browser's fetch metadata still tells another site.
  const site = request.headers["sec-fetch-site"]
  return site === undefined || site === "same-origin" || site === "none"
    ? Effect.void
    : Effect.fail(new Forbidden({ message: "cross-site request refused" }))
}

const checkJson = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const contentType = parseContentType(request.headers["content-type"])
    // The platform takes a body without Content-Type for JSON; an empty one is left to the schema.
    if (contentType === undefined && !hasBody(request)) return
    if (contentType?.essence !== "application/json") {
      return yield* new UnsupportedMediaType({ message: "this operation takes an application/json body" })
    }
    // The text is cached on the request: the platform's JSON decoding reads the same text.
    const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return yield* bodyProblem(`the JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`)
    }
  })

const checkMultipart = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const contentType = parseContentType(request.headers["content-type"])
    if (contentType?.essence !== "multipart/form-data") {
      return yield* new UnsupportedMediaType({ message: "this operation takes a multipart/form-data body" })
    }
    const boundary = contentType.parameters.get("boundary")
    if (boundary === undefined || boundary.length < 1 || boundary.length > 70) {
      return yield* bodyProblem("the multipart/form-data Content-Type has no boundary (1 to 70 characters)")
    }
    if (!hasBody(request)) return yield* bodyProblem("the multipart body is empty", "missing")
  })

const check = (
  request: HttpServerRequest.HttpServerRequest,
  endpoint: EndpointInfo,
  ownOrigins: ReadonlySet<string>,
  trustProxy: boolean
) =>
  Effect.gen(function* () {
    if (endpoint.session) yield* checkOrigin(request, ownOrigins, trustProxy)
    if (endpoint.body === "json") yield* checkJson(request)
    else if (endpoint.body === "multipart") yield* checkMultipart(request)
  })

export const RequestGuardLive = HttpApiBuilder.middleware(
  Effect.map(AppConfig, (config) => {
    const ownOrigins = new Set([new URL(config.publicBaseUrl).origin.toLowerCase()])
    return (app) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        // a read (GET, HEAD, OPTIONS) has nothing checked: no step of its own on every poll
        const endpoint = WRITES.has(request.method) ? endpointOf(request) : undefined
        return endpoint === undefined
          ? app
          : Effect.zipRight(check(request, endpoint, ownOrigins, config.trustProxy), app) as typeof app
      })
  })
)

/** After the body has ended, a part still awaited this long means the parser is stuck. */
const STUCK_AFTER_END_MS = 2_000

/**
 * The parts of a multipart body, failing (reason "Parse") when the body ends where multipasta
 * neither finishes nor fails: before the first part, just after a boundary line, or inside part
 * headers. Its `end()` reports `EndNotReached` only inside a part body, so the platform's parts
 * stream would wait forever. Once the request has been read to its end, every part is already
 * parsed: a part awaited for STUCK_AFTER_END_MS after that will never come.
 */
export const partsEndingWithBody = (request: HttpServerRequest.HttpServerRequest) =>
<A>(parts: Stream.Stream<A, Multipart.MultipartError>): Stream.Stream<A, Multipart.MultipartError> => {
  const source = NodeHttpServerRequest.toIncomingMessage(request)
  const bodyEnded = Effect.async<void>((resume) => {
    if (source.readableEnded) return resume(Effect.void)
    const onEnd = () => resume(Effect.void)
    source.once("end", onEnd)
    return Effect.sync(() => source.off("end", onEnd))
  })
  const stuck = bodyEnded.pipe(
    Effect.zipRight(Effect.sleep(STUCK_AFTER_END_MS)),
    Effect.zipRight(
      Effect.fail(Option.some(new Multipart.MultipartError({ reason: "Parse", cause: "the body ended before its closing boundary" })))
    )
  )
  return Stream.unwrapScoped(
    Effect.map(Stream.toPull(parts), (pull) => Stream.repeatEffectChunkOption(Effect.raceFirst(pull, stuck)))
  )
}
