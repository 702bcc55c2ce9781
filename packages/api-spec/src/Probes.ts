/** 4.1 Operations probes: no credentials, no parameters. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Timestamp } from "./Common.js"
import { ServiceUnavailable } from "./Errors.js"

export const DatabaseBackend = Schema.Literal("postgres", "pglite")

export const HealthResponse = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  version: Schema.String.annotations({ description: "The software's version (`callsight --version`)" }),
  api_version: Schema.String.annotations({ description: "The interface's version: the OpenAPI document's `info.version`" }),
  uptime_s: Schema.Number,
  database: Schema.Struct({
    backend: DatabaseBackend,
    connected: Schema.Boolean,
    latency_ms: Schema.NullOr(Schema.Number),
    error: Schema.NullOr(Schema.String)
  })
})

export const ReadyResponse = Schema.Struct({
  status: Schema.Literal("ready"),
  database: Schema.Literal("ok"),
  migrations: Schema.Literal("ok")
})

export const LatencyPercentiles = Schema.Struct({
  p50: Schema.Number,
  p90: Schema.Number,
  p99: Schema.Number
})

export const RouteMetrics = Schema.Struct({
  route: Schema.String.annotations({ description: "`METHOD /path/{param}`" }),
  count: Schema.Number,
  status_2xx: Schema.Number,
  status_3xx: Schema.Number,
  status_4xx: Schema.Number,
  status_5xx: Schema.Number,
  error_rate_4xx: Schema.Number,
  error_rate_5xx: Schema.Number,
  latency_ms: LatencyPercentiles
})

export const MetricsResponse = Schema.Struct({
  started_at: Timestamp,
  uptime_s: Schema.Number,
  total: RouteMetrics,
  routes: Schema.Array(RouteMetrics)
})

export const DbHealthResponse = Schema.Struct({
  status: Schema.Literal("ok", "degraded", "unavailable"),
  backend: DatabaseBackend,
  pool: Schema.Struct({
    size: Schema.Number,
    max: Schema.Number,
    idle: Schema.Number,
    busy: Schema.Number,
    waiting: Schema.Number,
    avg_acquire_wait_ms: Schema.Number,
    acquisitions: Schema.Number
  }),
  connections: Schema.Struct({
    active: Schema.Number,
    idle: Schema.Number,
    idle_in_transaction: Schema.Number,
    other: Schema.Number,
    total: Schema.Number
  }),
  cap: Schema.Number,
  headroom: Schema.Number,
  headroom_pct: Schema.Number
})

export class ProbesApi extends HttpApiGroup.make("probes")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(HealthResponse)
      .annotate(OpenApi.Summary, "Liveness")
      .annotate(OpenApi.Description, "Liveness; service status and database connectivity")
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(ReadyResponse)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Readiness")
      .annotate(OpenApi.Description, "Readiness; 503 when the database is unreachable or migrations have not run")
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics")
      .addSuccess(MetricsResponse)
      .annotate(OpenApi.Summary, "Request metrics per route")
      .annotate(
        OpenApi.Description,
        "In-memory request metrics per route: counts, 4xx/5xx rates, latency p50/p90/p99. " +
          "Prometheus text format with `Accept: text/plain`."
      )
  )
  .add(
    HttpApiEndpoint.get("dbHealth", "/health/db")
      .addSuccess(DbHealthResponse)
      .annotate(OpenApi.Summary, "Database health")
      .annotate(
        OpenApi.Description,
        "Deep database health: pool, connections by state, the connection cap and the headroom"
      )
  )
  .annotate(OpenApi.Title, "Operations probes")
  .annotate(OpenApi.Description, "Liveness, readiness, request metrics and database health; no credentials.")
{}
