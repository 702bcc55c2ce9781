/**
 * `CallsightError`, every failure of the Promise facade, and `toCallsightError`, which makes one
 * of any failure of a client Effect (the CLI reports its failures with it too).
 */
import { HttpApiSchema, HttpClientError as HttpClientErrors, type HttpClientResponse } from "@effect/platform"
import { Effect, Either, ParseResult, Schema } from "effect"
import { MissingApiKey } from "./Derive.js"
import { RequestTimeout } from "./Retry.js"

/**
 * Every failure of the Promise facade. `tag` is the typed error's `_tag` when the service answered
 * with a declared error (`"Unauthorized"`, `"ValidationFailed"`, `"NotFound"`, ...), and otherwise:
 * - `"TransportError"`: no answer (connection refused, DNS, reset, aborted);
 * - `"Timeout"`: no answer within `timeoutMs` (`uploadTimeoutMs` for an upload), retries included;
 * - `"UnexpectedStatus"`: an answer with a status the declaration does not list for the operation;
 * - `"DecodeError"`: an answer whose body does not match the declaration, or an argument that does
 *   not (the client checks path and query parameters before sending: `limit: 500`);
 * - `"RequestError"`: the request could not be made (a body that cannot be encoded, an invalid URL);
 * - `"MissingApiKey"`: a keyed operation on a client created without `apiKey` (nothing was sent);
 * - `"AudioSourceError"`: the file to upload could not be read (no such file, a directory, ...);
 * - `"WaitTimeout"`: `waitForCompletion` gave up (`body.last` is the last status it read);
 * - `"Interrupted"`: the run was interrupted;
 * - `"Defect"`: a bug in the client.
 *
 * The README of the package has the table of every tag, when it happens and what to do.
 */
export class CallsightError extends Error {
  override readonly name = "CallsightError"
  /** The typed error's `_tag`, or one of the client's own tags above. */
  readonly tag: string
  /** The HTTP status of the answer; `undefined` when there was none. */
  readonly status: number | undefined
  /** The decoded body of the answer (`{ _tag, message }`, `{ _tag, detail }`, ...) or its text. */
  readonly body: unknown

  /**
   * `message` says what happened, without the tag (it is in `tag`): `no call call_x`, not
   * `NotFound: no call call_x`. The tag is named once where the error is printed, as Node.js names
   * the code of its own errors: `CallsightError [NotFound]: no call call_x` (`toString()` and the
   * first line of `stack`).
   */
  constructor(options: {
    readonly tag: string
    readonly status: number | undefined
    readonly body: unknown
    readonly message: string
    readonly cause?: unknown
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause })
    this.tag = options.tag
    this.status = options.status
    this.body = options.body
    // the stack's first line is written when it is first read, from `name`: with the tag, once
    const self = this as { name: string }
    self.name = `CallsightError [${options.tag}]`
    void this.stack
    self.name = "CallsightError"
  }

  override toString(): string {
    return `${this.name} [${this.tag}]: ${this.message}`
  }
}

export const isCallsightError = (u: unknown): u is CallsightError => u instanceof CallsightError

const describeBody = (body: unknown): string => {
  if (typeof body !== "object" || body === null) return typeof body === "string" && body !== "" ? body : ""
  const b = body as { message?: unknown; detail?: unknown }
  if (typeof b.message === "string") return b.message
  if (Array.isArray(b.detail)) {
    return b.detail
      .map((d: { loc?: Array<unknown>; msg?: unknown }) => `${(d.loc ?? []).join(".")}: ${String(d.msg)}`)
      .join("; ")
  }
  return ""
}

/** The HTTP status an error class of the declaration is answered with. */
const declaredStatus = (error: object): number | undefined => {
  const ctor = (error as { constructor?: unknown }).constructor
  return Schema.isSchema(ctor) ? HttpApiSchema.getStatusError(ctor) : undefined
}

const encodedError = (error: object): unknown => {
  const ctor = (error as { constructor?: unknown }).constructor
  if (Schema.isSchema(ctor)) {
    const encoded = Schema.encodeUnknownEither(ctor as Schema.Schema<unknown, unknown, never>)(error)
    if (Either.isRight(encoded)) return encoded.right
  }
  // a `Data.TaggedError` (the client's own): its `_tag` is inherited and its `message` not enumerable
  const { _tag, message } = error as { _tag?: unknown; message?: unknown }
  return { _tag, ...(typeof message === "string" ? { message } : {}), ...error }
}

const readBody = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<unknown> =>
  response.text.pipe(
    Effect.map((text) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        return text
      }
    }),
    Effect.orElseSucceed(() => undefined)
  )

/** The messages of an error and its causes: `fetch failed: connect ECONNREFUSED 127.0.0.1:8080`. */
const causes = (error: unknown): string => {
  const messages: Array<string> = []
  for (let e = error; e instanceof Error && messages.length < 4; e = e.cause) {
    if (e.message !== "" && !messages.includes(e.message)) messages.push(e.message)
  }
  return messages.join(": ")
}

/** Any failure of a client Effect as a `CallsightError`. */
export const toCallsightError = (error: unknown): Effect.Effect<CallsightError> => {
  if (error instanceof CallsightError) return Effect.succeed(error)
  if (error instanceof MissingApiKey) {
    return Effect.succeed(
      new CallsightError({ tag: error._tag, status: undefined, body: undefined, message: error.message, cause: error })
    )
  }
  if (ParseResult.isParseError(error)) {
    return Effect.succeed(
      new CallsightError({ tag: "DecodeError", status: undefined, body: undefined, message: error.message, cause: error })
    )
  }
  if (HttpClientErrors.isHttpClientError(error)) {
    if (error._tag === "RequestError") {
      const tag = error.cause instanceof RequestTimeout
        ? "Timeout"
        : error.reason === "Transport"
        ? "TransportError"
        : "RequestError"
      return Effect.succeed(
        new CallsightError({
          tag,
          status: undefined,
          body: undefined,
          message: `${error.request.method} ${error.request.url}: ${causes(error.cause) || error.description || error.reason}`,
          cause: error
        })
      )
    }
    const response = error.response
    return Effect.map(readBody(response), (body) => {
      // the derived client answers a status the operation does not declare as a `Decode` error
      // without a cause (a body that could not be read has one)
      const tag = error.reason === "StatusCode" || (error.reason === "Decode" && error.cause === undefined)
        ? "UnexpectedStatus"
        : "DecodeError"
      const text = describeBody(body)
      return new CallsightError({
        tag,
        status: response.status,
        body,
        message: `${response.status} ${error.request.method} ${error.request.url}${text === "" ? "" : `: ${text}`}`,
        cause: error
      })
    })
  }
  if (typeof error === "object" && error !== null && typeof (error as { _tag?: unknown })._tag === "string") {
    const tag = (error as { _tag: string })._tag
    const body = encodedError(error)
    const status = declaredStatus(error)
    const text = describeBody(body)
    return Effect.succeed(
      new CallsightError({
        tag,
        status,
        body,
        // the tag is `tag`: the message is the error's own text (or, without one, what was answered)
        message: text !== "" ? text : status === undefined ? "no message" : `answered ${status} without a message`,
        cause: error
      })
    )
  }
  return Effect.succeed(
    new CallsightError({ tag: "Defect", status: undefined, body: undefined, message: String(error), cause: error })
  )
}
