/**
 * Every request of the app goes through the typed client (`@callsight/client`), derived from the
 * declaration: same origin, the session cookie sent by the browser, no API key. `call` runs one
 * client program and turns its outcome into what React code handles: the answer, or an `ApiError`
 * with the declaration's tag, message and, for a 422 or a body the declaration's schema refused
 * before sending, the `detail` of each field (so a form shows the same message either way), worded
 * for a person ("required", "must be between 0 and 3650") rather than in the schema's words.
 *
 * A 401 means the session is gone: the app goes to the sign-in page, which comes back here.
 */
import { Api, CallsightClient, type CallsightClientService } from "@callsight/client"
import { Cause, Effect, Exit, ManagedRuntime, Option, ParseResult, Schema } from "effect"

/** One field's complaint: where (`["body", "industry"]`), and what. */
export interface FieldIssue {
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
}

/** A failed request, as the screens show it. */
export class ApiError extends Error {
  constructor(
    readonly tag: string,
    message: string,
    readonly detail: ReadonlyArray<FieldIssue> = []
  ) {
    super(message)
  }
}

const runtime = ManagedRuntime.make(CallsightClient.layer({ baseUrl: window.location.origin, maxRetries: 1, session: true }))

const SIGN_IN = "/sign-in"

/** To the sign-in page, which sends the person back to where they were once signed in. */
export const signInAgain = () => {
  const next = window.location.pathname + window.location.search
  window.location.assign(`${SIGN_IN}?next=${encodeURIComponent(next)}`)
}

const issuesOf = (error: ParseResult.ParseError, at: "body" | "query"): ReadonlyArray<FieldIssue> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({ loc: [at, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], msg: issue.message }))

const ALTERNATIVE = /^Expected (null|undefined), actual /
const BLANK = /^Expected a (non empty string|string at least 1 character\(s\) long), actual ""$/

/** The schema's wording of the common complaints, in a form's words. */
const plainly = (msg: string): string => {
  if (BLANK.test(msg)) return "required"
  const between = /^Expected (?:a number|an integer) between (\S+) and (\S+), actual /.exec(msg)
  if (between !== null) return `must be between ${between[1]} and ${between[2]}`
  if (/^Expected (number|a finite number), actual /.test(msg)) return "must be a number"
  if (/^Expected an integer, actual /.test(msg)) return "must be a whole number"
  const atLeast = /^Expected an array of at least (\d+) item\(s\), actual /.exec(msg)
  if (atLeast !== null) return atLeast[1] === "1" ? "choose at least one" : `choose at least ${atLeast[1]}`
  return msg
}

const within = (outer: ReadonlyArray<string | number>, inner: ReadonlyArray<string | number>) =>
  outer.length <= inner.length && outer.every((p, i) => String(p) === String(inner[i]))

/**
 * Issues as a person reads them: an optional field's "Expected null / undefined" (the other members
 * of its union) is left out when the field has a real complaint, and the common complaints are
 * said plainly.
 */
const readable = (detail: ReadonlyArray<FieldIssue>): ReadonlyArray<FieldIssue> =>
  detail
    .filter((d, i) => !(ALTERNATIVE.test(d.msg) && detail.some((o, j) => j !== i && !ALTERNATIVE.test(o.msg) && within(d.loc, o.loc))))
    .map((d) => ({ loc: d.loc, msg: plainly(d.msg) }))

const invalid = (detail: ReadonlyArray<FieldIssue>) => new ApiError("ValidationFailed", "Some fields are not valid.", readable(detail))

const toApiError = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error
  if (ParseResult.isParseError(error)) return invalid(issuesOf(error, "body"))
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const tagged = error as { _tag: string; message?: string; detail?: ReadonlyArray<FieldIssue> }
    if (tagged._tag === "ValidationFailed") return invalid(tagged.detail ?? [])
    return new ApiError(tagged._tag, tagged.message ?? tagged._tag)
  }
  return new ApiError("Unexpected", String(error))
}

/** Runs `program` with the client; resolves with its answer, rejects with an `ApiError` (a 401 goes to sign-in). */
export const call = <A, E>(program: (client: CallsightClientService) => Effect.Effect<A, E>): Promise<A> =>
  runtime.runPromiseExit(Effect.flatMap(CallsightClient, program)).then((exit) => {
    if (Exit.isSuccess(exit)) return exit.value
    const failure = Cause.failureOption(exit.cause)
    const error = toApiError(Option.isSome(failure) ? failure.value : Cause.squash(exit.cause))
    if (error.tag === "Unauthorized") signInAgain()
    throw error
  })

/**
 * A form's values checked against the request's schema before anything is sent: the body, or an
 * `ApiError` with each field's issue, worded as the server's 422 would word it.
 */
export const decodeBody = <A, I>(schema: Schema.Schema<A, I>, values: unknown): Effect.Effect<A, ApiError> =>
  Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "ignore" })(values).pipe(
    Effect.mapError((error) => invalid(issuesOf(error, "body")))
  )

/** A form sent: its values checked against the request's schema, then `send` with the body. */
export const checked = <A, I, B, E>(
  schema: Schema.Schema<A, I>,
  values: unknown,
  send: (client: CallsightClientService, payload: A) => Effect.Effect<B, E>
): Promise<B> => call((c) => Effect.flatMap(decodeBody(schema, values), (payload) => send(c, payload)))

export { Api }
