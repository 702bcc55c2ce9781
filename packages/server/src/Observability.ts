/**
 * Logs and traces. Logs are one JSON object per line on stdout (`LOG_FORMAT=pretty` for people),
 * written without blocking the event loop: lines are handed to sonic-boom, which writes them to
 * the file descriptor from libuv's thread pool in batches (a `console.log` per request was a
 * synchronous write each, ~17 % of a busy server's time), at least every 200 ms, and flushes them
 * when the process stops. Spans go to an OTLP/HTTP collector when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise tracing is off, so no request pays for spans
 * nobody receives.
 */
import { NodeSdk } from "@effect/opentelemetry"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Cause, Duration, Effect, FiberId, Layer, Logger, Option, Schedule } from "effect"
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
  for (const [key, value] of annotations) annotated[key] = value
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
      fiberId: FiberId.threadName(fiberId)
    })
  } catch {
    return Logger.jsonLogger.log(options)
  }
})

/** Lines are written when this many bytes are buffered, or after FLUSH_EVERY, whichever comes first. */
const BATCH_BYTES = 8 * 1024
const FLUSH_EVERY = Duration.millis(200)

/**
 * JSON lines to stdout, asynchronously and in batches (one write a busy moment, not one a line);
 * what is still buffered is written when the scope closes.
 */
const jsonToStdout = Logger.replaceScoped(
  Logger.defaultLogger,
  Effect.gen(function* () {
    const stream = yield* Effect.acquireRelease(
      Effect.sync(() => new SonicBoom({ fd: process.stdout.fd, sync: false, minLength: BATCH_BYTES })),
      (stream) => Effect.sync(() => stream.flushSync())
    )
    yield* Effect.forkScoped(Effect.repeat(Effect.sync(() => stream.flush()), Schedule.spaced(FLUSH_EVERY)))
    return Logger.map(jsonLine, (line) => stream.write(`${line}\n`))
  })
)

export const LoggerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.logFormat === "pretty" ? Logger.pretty : jsonToStdout))
)

/** Whether spans go anywhere: without a collector, tracing is off. */
export const tracingEnabled = (config: { readonly otlpEndpoint: Option.Option<unknown> }) => Option.isSome(config.otlpEndpoint)

export const TracingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.otlpEndpoint, {
      onNone: () => Layer.setTracerEnabled(false),
      onSome: (endpoint) =>
        NodeSdk.layer(() => ({
          resource: { serviceName: "callsight", serviceVersion: VERSION },
          spanProcessor: new BatchSpanProcessor(
            new OTLPTraceExporter({ url: new URL("v1/traces", endpoint.toString().replace(/\/?$/, "/")).toString() })
          )
        }))
    })
  )
)
