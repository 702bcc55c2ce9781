/**
 * Logs and traces. Logs are one JSON object per line (`LOG_FORMAT=pretty` for people); spans go
 * to an OTLP/HTTP collector when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and nowhere otherwise.
 */
import { NodeSdk } from "@effect/opentelemetry"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Logger, Option } from "effect"
import { AppConfig } from "./config.js"
import { VERSION } from "./version.js"

export const LoggerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => (config.logFormat === "pretty" ? Logger.pretty : Logger.json))
)

export const TracingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.otlpEndpoint, {
      onNone: () => Layer.empty,
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
