/**
 * Request handling around every operation:
 * - `ApiErrorsLive` (inside the API): decode failures become 422 `ValidationFailed` with a
 *   `detail` body; over-limit multipart bodies become 413; defects become a 500 whose body holds
 *   only a trace id (the log line has the cause).
 * - `serverMiddleware` (outermost): the `/reporting` prefix alias, request metrics and one log
 *   line per request, named by its route: the declared operation's (`GET /analysis/{call_id}`),
 *   else the route of the router that served it (the pages, `/docs`, `/openapi.json`, `/mcp`),
 *   else `GET (unmatched)` (the 404). The security headers of every answer are the server's
 *   pre-response handler (SecurityHeaders.ts, installed in HttpApp.ts).
 */
import { InternalError, PayloadTooLarge, ValidationFailed, type ValidationIssue } from "@callsight/api-spec"
import {
  HttpApiBuilder,
  HttpApiError,
  type HttpApp,
  type HttpRouter,
  HttpServerError,
  HttpServerRequest,
  type HttpServerResponse,
  Multipart
} from "@effect/platform"
import { Cause, Context, Effect, type Exit } from "effect"
import * as FindMyWay from "find-my-way-ts"
import { logInfoWith } from "../Observability.js"
import { endpointOf, locate } from "./EndpointIndex.js"
import { RequestMetrics } from "./RequestMetrics.js"

const issueType: Record<string, string> = {
  Missing: "missing",
  Type: "type_error",
  Refinement: "value_error",
  Unexpected: "extra_forbidden",
  Forbidden: "forbidden",
  Pointer: "value_error",
  Composite: "value_error",
  Transformation: "value_error"
}

export const toValidationFailed = (
  error: HttpApiError.HttpApiDecodeError,
  request: HttpServerRequest.HttpServerRequest
): ValidationFailed => {
  const endpoint = endpointOf(request)
  // An optional (nullable) field decodes as `X | undefined` (`X | null`): its failure also reports
  // that branch, which only restates that the value was present (the `X` failure may be deeper).
  const issues = error.issues.filter(
    (issue, _, all) =>
      !(issue._tag === "Type" && /^Expected (undefined|null),/.test(issue.message) &&
        all.some((other) => other !== issue && issue.path.every((p, i) => other.path[i] === p)))
  )
  const detail = issues.map((issue): ValidationIssue => {
    const where = locate(endpoint, issue.path[0])
    return {
      loc: [where, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg: issue._tag === "Missing" ? "Field required" : issue.message,
      type: issueType[issue._tag] ?? "value_error"
    }
  })
  return new ValidationFailed({
    detail: detail.length > 0 ? detail : [{ loc: ["body"], msg: error.message, type: "value_error" }]
  })
}

const isTooLarge = (error: unknown): error is Multipart.MultipartError =>
  error instanceof Multipart.MultipartError &&
  (error.reason === "FileTooLarge" || error.reason === "FieldTooLarge" || error.reason === "BodyTooLarge")

const isBodyReadError = (error: unknown): error is HttpServerError.RequestError =>
  HttpServerError.isServerError(error) && error._tag === "RequestError" && error.reason === "Decode"

const traceId = Effect.map(Effect.currentSpan, (span) => span.traceId).pipe(
  Effect.orElseSucceed(() => crypto.randomUUID().replace(/-/g, ""))
)

/** The failure a cause is answered with, or the cause itself when it is already a declared error. */
const translate = (cause: Cause.Cause<unknown>): Effect.Effect<Cause.Cause<unknown>, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const failure = Cause.failureOption(cause)
    if (failure._tag === "Some") {
      const error = failure.value
      if (error instanceof HttpApiError.HttpApiDecodeError) {
        return Cause.fail(toValidationFailed(error, yield* HttpServerRequest.HttpServerRequest))
      }
      if (isTooLarge(error)) return Cause.fail(new PayloadTooLarge({ message: `upload too large (${error.reason})` }))
      return cause
    }
    const defect = Cause.dieOption(cause)
    if (defect._tag === "None") return cause // interruption: the client went away
    if (isTooLarge(defect.value)) {
      return Cause.fail(new PayloadTooLarge({ message: `upload too large (${defect.value.reason})` }))
    }
    // The platform reads a JSON body with `Effect.orDie(request.json)`: a body that is not JSON,
    // or is over the body limit, arrives here as a defect.
    if (isBodyReadError(defect.value)) {
      return Cause.fail(
        String(defect.value.cause).includes("maxBytes exceeded")
          ? new PayloadTooLarge({ message: "the body is over the size limit" })
          : new ValidationFailed({ detail: [{ loc: ["body"], msg: "the body is not valid JSON", type: "json_invalid" }] })
      )
    }
    const trace_id = yield* traceId
    yield* Effect.logError("unhandled defect", Cause.pretty(cause)).pipe(Effect.annotateLogs({ trace_id }))
    return Cause.fail(new InternalError({ message: "internal error", trace_id }))
  })

// The platform types an API middleware's app as failing with `never`; its real failures are the
// declared errors, which it encodes after this middleware, so the translated cause is re-raised.
export const ApiErrorsLive = HttpApiBuilder.middleware((app) =>
  Effect.catchAllCause(app, (cause) => Effect.flatMap(translate(cause), (c) => Effect.failCause(c as Cause.Cause<never>)))
)

const REPORTING = "/reporting"

/** The request as routed: the whole API answers under `/reporting` too, by rewriting the URL before routing. */
const aliased = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest => {
  const url = request.url
  if (url === REPORTING || url.startsWith(`${REPORTING}/`) || url.startsWith(`${REPORTING}?`)) {
    const rest = url.slice(REPORTING.length)
    return request.modify({ url: rest.startsWith("/") ? rest : `/${rest}` })
  }
  return request
}

/** The path patterns of a router's routes (`/portal/calls/{call_id}`), indexed once per router; not the catch-all 404. */
const routeIndexes = new WeakMap<HttpRouter.HttpRouter<any, any>, FindMyWay.Router<string>>()

const routeIndexOf = (router: HttpRouter.HttpRouter<any, any>): FindMyWay.Router<string> => {
  const known = routeIndexes.get(router)
  if (known !== undefined) return known
  const index = FindMyWay.make<string>({ ignoreTrailingSlash: true })
  for (const route of router.routes) {
    if (route.path === "*" || route.path === "/*") continue
    const pattern = route.path.replace(/:(\w+)/g, "{$1}")
    if (route.method === "*") index.all(route.path, pattern)
    else index.on(route.method, route.path, pattern)
  }
  routeIndexes.set(router, index)
  return index
}

/**
 * A request's route, `METHOD /path/{param}`: the declared operation's, else that of the router's
 * route that serves it (what is served beside the declaration: the pages, `/docs`, `/mcp`, ...; a
 * HEAD by its GET route, as the router serves it), else `METHOD (unmatched)`.
 */
const routeOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<string, never, HttpApiBuilder.Router> => {
  const declared = endpointOf(request)?.route
  if (declared !== undefined) return Effect.succeed(declared)
  return Effect.map(HttpApiBuilder.Router.router, (router) => {
    const index = routeIndexOf(router)
    const path = request.url.split("?")[0]
    const pattern = index.find(request.method, path)?.handler ??
      (request.method === "HEAD" ? index.find("GET", path)?.handler : undefined)
    return `${request.method} ${pattern ?? "(unmatched)"}`
  })
}

/** The status the client got: a failure was answered by the server from its cause (before this middleware saw it). */
const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>): Effect.Effect<number> =>
  exit._tag === "Success"
    ? Effect.succeed(exit.value.status)
    : Effect.map(HttpServerError.causeResponse(exit.cause), ([response]) => response.status)

/** One answered request: its route's metrics and its log line. */
const answered = (metrics: RequestMetrics, request: HttpServerRequest.HttpServerRequest, route: string, status: number, ms: number) => {
  metrics.add(route, status, ms)
  return logInfoWith("request", {
    method: request.method,
    path: request.url.split("?")[0],
    route,
    status,
    duration_ms: Math.round(ms * 100) / 100
  })
}

/**
 * The one step around every request (outermost; the security headers are the server's
 * pre-response handler, SecurityHeaders.ts): the `/reporting` alias, then, once the answer has
 * gone, the route's metrics and one log line, named by the route pattern, not the raw path. One
 * step, no generator and no fiber-local state of its own: it runs on every request, and a
 * `/health` answer is a few hundred microseconds in all (bench/status.bench.ts). A declared
 * operation's answer (nearly every request) is logged without another step: its status is the
 * response's and its route the declaration's.
 */
export const serverMiddleware = (
  app: HttpApp.Default
): HttpApp.Default<never, RequestMetrics | HttpApiBuilder.Router> =>
  Effect.withFiberRuntime((fiber) => {
    const received = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const request = aliased(received)
    const metrics = Context.unsafeGet(fiber.currentContext, RequestMetrics)
    const started = performance.now()
    const served = request === received ? app : Effect.provideService(app, HttpServerRequest.HttpServerRequest, request)
    return Effect.onExit(served, (exit) => {
      const ms = performance.now() - started
      const declared = endpointOf(request)?.route
      return exit._tag === "Success" && declared !== undefined
        ? answered(metrics, request, declared, exit.value.status, ms)
        : Effect.flatMap(Effect.zip(statusOf(exit), routeOf(request)), ([status, route]) => answered(metrics, request, route, status, ms))
    })
  }) as HttpApp.Default<never, RequestMetrics | HttpApiBuilder.Router>
