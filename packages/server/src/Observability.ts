/**
 * Logs and traces. Logs go to stdout, one line per entry: JSON objects (`LOG_FORMAT=json`, the
 * default when stdout is not a terminal: a file, a pipe, a log collector) or lines for people
 * (`LOG_FORMAT=pretty`, the default on a terminal: time, level, message and `key=value`
 * annotations, coloured on a terminal). Either is written without blocking the event loop: lines
 * are handed to sonic-boom, which writes them to the file descriptor from libuv's thread pool (a
 * `console.log` per request was a synchronous write each, ~17 % of a busy server's time), JSON in
 * batches at least every 200 ms, and flushes them when the process stops. The process says when
 * it is asked to stop and when it has stopped (`withShutdownLines`). Spans go to an OTLP/HTTP
 * collector when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise tracing is off, so no request
 * pays for spans nobody receives.
 */
import {
  Cause,
  Clock,
  Context,
  Duration,
  Effect,
  FiberId,
  FiberRef,
  HashMap,
  Inspectable,
  Layer,
  Logger,
  LogLevel,
  Option,
  Ref,
  Schedule
} from "effect"
import SonicBoom from "sonic-boom"
import { AppConfig } from "./config.js"
import { VERSION } from "./version.js"

/**
 * One log entry as a JSON line, in the shape of effect's `Logger.jsonLogger` (message, logLevel,
 * timestamp, cause, annotations, spans, fiberId), built directly: the request log writes one per
 * request, and the library's general one (a circular-safe stringify of every value) cost as much
 * as the rest of a `/health` answer. A value plain JSON cannot hold falls back to the library's.
 */
const jsonLine = Logger.make<unknown, string>((options) => {
  const { annotations, cause, date, fiberId, logLevel, message, spans } = options
  const now = date.getTime()
  const annotated: Record<string, unknown> = {}
  HashMap.forEach(annotations, (value, key) => {
    annotated[key] = value
  })
  const spanned: Record<string, number> = {}
  for (const span of spans) spanned[span.label] = now - span.startTime
  const messages = Array.isArray(message) ? message : [message]
  try {
    return JSON.stringify({
      message: messages.length === 1 ? messages[0] : messages,
      logLevel: logLevel.label,
      timestamp: date.toISOString(),
      cause: Cause.isEmpty(cause) ? undefined : Cause.pretty(cause, { renderErrorCause: true }),
      annotations: annotated,
      spans: spanned,
      // a request's own fiber: its number as `threadName` writes it, without building the general form
      fiberId: fiberId._tag === "Runtime" ? `#${fiberId.id}` : FiberId.threadName(fiberId)
    })
  } catch {
    return Logger.jsonLogger.log(options)
  }
})

/**
 * `Effect.annotateLogs(Effect.logInfo(message), annotations)`, the same entry to the same loggers
 * (the fiber's annotations and spans with `annotations` added, its minimum level, its clock), handed
 * to them directly: `annotateLogs` sets the fiber's annotations and sets them back, two copies of
 * the fiber's local state in an uninterruptible region, which the request log (one entry per
 * request, http/Middleware.ts) paid on every request.
 */
export const logInfoWith = (message: string, annotations: Readonly<Record<string, unknown>>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    if (LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Info)) return Effect.void
    const annotated = HashMap.mutate(fiber.getFiberRef(FiberRef.currentLogAnnotations), (map) => {
      for (const key in annotations) HashMap.set(map, key, annotations[key])
    })
    const entry = {
      fiberId: fiber.id(),
      logLevel: LogLevel.Info,
      message,
      cause: Cause.empty,
      context: fiber.getFiberRefs(),
      spans: fiber.getFiberRef(FiberRef.currentLogSpan),
      annotations: annotated,
      date: new Date(Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis())
    }
    Inspectable.withRedactableContext(entry.context, () => {
      for (const logger of fiber.getFiberRef(FiberRef.currentLoggers)) logger.log(entry)
    })
    return Effect.void
  })

const ESC = "\u001b["
const paint = (code: string, text: string) => `${ESC}${code}m${text}${ESC}0m`

const LEVEL_COLOUR: Partial<Record<LogLevel.LogLevel["label"], string>> = {
  FATAL: "1;31",
  ERROR: "31",
  WARN: "33",
  INFO: "32",
  DEBUG: "34",
  TRACE: "90"
}

/** A value of a `key=value` pair: as it is when it is a plain word, else as JSON (quoted, escaped). */
const pairValue = (value: unknown): string => {
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value)
  if (typeof value === "string" && /^[^\s"=\\\u0000-\u001f\u007f]+$/.test(value)) return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return JSON.stringify(String(value))
  }
}

/** The annotations a line for people shows first, in this order; the others follow by name. */
const FIRST = ["call_id", "client_id", "route", "status", "duration_ms"]

const byReading = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]) => {
  const [i, j] = [FIRST.indexOf(a), FIRST.indexOf(b)]
  if (i !== j) return i === -1 ? 1 : j === -1 ? -1 : i - j
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * One entry as a line for people: `12:04:05.123 INFO  request route="GET /docs" status=200 duration_ms=3.1 method=GET`,
 * the annotations by name (those of FIRST first), each span as `name=<ms>ms`, a cause on the lines below, indented.
 * `colours`: the level, the names and the cause painted with ANSI colours (for a terminal).
 */
export const prettyLine = (colours: boolean) =>
  Logger.make<unknown, string>(({ annotations, cause, date, logLevel, message, spans }) => {
    const now = date.getTime()
    const time = date.toISOString().slice(11, 23)
    const level = logLevel.label.padEnd(5)
    const messages = (Array.isArray(message) ? message : [message]).map((m) => (typeof m === "string" ? m : pairValue(m)))
    const pairs: Array<string> = []
    for (const [key, value] of [...annotations].sort(byReading)) {
      pairs.push(`${colours ? paint("2", `${key}=`) : `${key}=`}${pairValue(value)}`)
    }
    for (const span of spans) pairs.push(`${colours ? paint("2", `${span.label}=`) : `${span.label}=`}${now - span.startTime}ms`)
    const colour = LEVEL_COLOUR[logLevel.label]
    const head = [
      colours ? paint("2", time) : time,
      colours && colour !== undefined ? paint(colour, level) : level,
      messages.join(" "),
      ...pairs
    ].join(" ")
    if (Cause.isEmpty(cause)) return head
    const causeText = Cause.pretty(cause, { renderErrorCause: true }).replace(/^/gm, "  ")
    return `${head}\n${colours ? paint("31", causeText) : causeText}`
  })

/** JSON lines are written when this many bytes are buffered, or after FLUSH_EVERY, whichever comes first. */
const BATCH_BYTES = 8 * 1024
const FLUSH_EVERY = Duration.millis(200)

/**
 * The lines of `format` to stdout, asynchronously, in batches of `batchBytes` (one write a busy
 * moment, not one a line) written at least every FLUSH_EVERY; what is still buffered is written
 * when the scope closes. The batch is gathered here, a list of lines joined once it is full:
 * sonic-boom's own buffering measures its whole pending string (`Buffer.byteLength`) at every
 * write, which made a line's cost grow with the batch (a fifth of a request's log line).
 */
const linesToStdout = (format: Logger.Logger<unknown, string>, batchBytes: number) =>
  Logger.replaceScoped(
    Logger.defaultLogger,
    Effect.gen(function* () {
      const pending: Array<string> = []
      let pendingLength = 0
      const stream = yield* Effect.acquireRelease(
        Effect.sync(() => new SonicBoom({ fd: process.stdout.fd, sync: false })),
        (stream) =>
          Effect.sync(() => {
            flush()
            stream.flushSync()
          })
      )
      const flush = () => {
        if (pending.length === 0) return
        stream.write(pending.join(""))
        pending.length = 0
        pendingLength = 0
      }
      if (batchBytes > 0) {
        yield* Effect.forkScoped(Effect.repeat(Effect.sync(flush), Schedule.spaced(FLUSH_EVERY)))
      }
      return Logger.map(format, (line) => {
        pending.push(line, "\n")
        pendingLength += line.length + 1
        if (pendingLength >= batchBytes) flush()
      })
    })
  )

/**
 * The logger of `LOG_FORMAT`: JSON lines in batches, or lines for people written as they come
 * (coloured when stdout is a terminal).
 */
export const LoggerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    config.logFormat === "pretty"
      ? linesToStdout(prettyLine(process.stdout.isTTY === true), 0)
      : linesToStdout(jsonLine, BATCH_BYTES))
)

/**
 * `layer` (a whole process: `callsight serve`, `callsight worker`) with a line when it is asked to
 * stop (`shutting down`: SIGINT and SIGTERM interrupt the process, and its layers close in
 * reverse) and one when everything in it has stopped (`stopped`, with `shutdown_ms`): the server
 * no longer listens and has answered what was in flight, the workers have handed their jobs back,
 * the database is closed. Both are written by the loggers provided below `layer` (whatever a layer
 * inside sets for itself), which are released (and flushed) after them.
 */
export const withShutdownLines = <A, E, R>(what: "server" | "worker", layer: Layer.Layer<A, E, R>) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const stopping = yield* Ref.make(Option.none<number>())
      const loggers = yield* FiberRef.get(FiberRef.currentLoggers)
      const minimumLevel = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
      const log = (message: string, annotations: Record<string, unknown>) =>
        Effect.logInfo(message).pipe(
          Effect.annotateLogs(annotations),
          Effect.locally(FiberRef.currentLoggers, loggers),
          Effect.locally(FiberRef.currentMinimumLogLevel, minimumLevel)
        )
      // added before `layer` is built, so run after everything it holds is closed
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(Ref.get(stopping), (since) =>
          Option.match(since, {
            onNone: () => Effect.void,
            onSome: (since) =>
              Effect.flatMap(Clock.currentTimeMillis, (now) => log("stopped", { process: what, shutdown_ms: now - since }))
          }))
      )
      // added once `layer` is built, so run first when the process stops
      const shuttingDown = Effect.addFinalizer(() =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.zipRight(Ref.set(stopping, Option.some(now)), log("shutting down", { process: what })))
      )
      return Layer.flatMap(layer, (context) => Layer.scopedContext(Effect.as(shuttingDown, context)))
    })
  )

/** Whether spans go anywhere: without a collector, tracing is off. */
export const tracingEnabled = (config: { readonly otlpEndpoint: Option.Option<unknown> }) => Option.isSome(config.otlpEndpoint)

export const TracingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.otlpEndpoint, {
      onNone: () => Layer.setTracerEnabled(false),
      // the OpenTelemetry SDK is loaded only by a process that exports spans
      onSome: (endpoint) =>
        Layer.unwrapEffect(
          Effect.promise(() =>
            Promise.all([
              import("@effect/opentelemetry/NodeSdk"),
              import("@opentelemetry/exporter-trace-otlp-http"),
              import("@opentelemetry/sdk-trace-base")
            ])
          ).pipe(Effect.map(([NodeSdk, { OTLPTraceExporter }, { BatchSpanProcessor }]) =>
            NodeSdk.layer(() => ({
              resource: { serviceName: "callsight", serviceVersion: VERSION },
              spanProcessor: new BatchSpanProcessor(
                new OTLPTraceExporter({ url: new URL("v1/traces", endpoint.toString().replace(/\/?$/, "/")).toString() })
              )
            }))
          ))
        )
    })
  )
)
