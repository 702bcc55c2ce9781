/**
 * Logs and traces. Logs are one JSON object per line on stdout (`LOG_FORMAT=pretty` for people),
 * written without blocking the event loop: lines are handed to sonic-boom, which writes them to
 * the file descriptor from libuv's thread pool, several at a time while a write is in flight (a
 * `console.log` per request was a synchronous write each, ~17 % of a busy server's time), and
 * flushed when the process stops. Spans go to an OTLP/HTTP collector when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise tracing is off, so no request pays for spans
 * nobody receives.
 */
import { NodeSdk } from "@effect/opentelemetry"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Logger, Option } from "effect"
import SonicBoom from "sonic-boom"
import { AppConfig } from "./config.js"
import { VERSION } from "./version.js"

/** JSON lines to stdout, asynchronously; what is still buffered is written when the scope closes. */
const jsonToStdout = Logger.replaceScoped(
  Logger.defaultLogger,
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new SonicBoom({ fd: process.stdout.fd, sync: false })),
      (stream) => Effect.sync(() => stream.flushSync())
    ),
    (stream) => Logger.map(Logger.jsonLogger, (line) => stream.write(`${line}\n`))
  )
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
