/**
 * The stack floor of bench/status.bench.ts: the smallest honest server on Callsight's own stack,
 * written as the Effect documentation writes an `HttpApi`. One group, the status poll
 * `GET /analysis/:call_id` with the same `X-API-Key` header and path parameter, answering the same
 * wire schema (`AnalysisStatusResponse`) from the same two statements as the service (the key by
 * its SHA-256, then the call's status row) through `@effect/sql-pg`, and a `/health` that reports
 * a database ping shared by the requests of the same second, as the service's does, in the service's
 * answer (`HealthResponse`). No middleware,
 * no logging, no tracing, no metrics, no key cache: what the framework itself costs.
 *
 *   PORT=… DATABASE_URL=… DB_POOL_MAX=10 npx tsx bench/floor-status-server.ts
 */
import { AnalysisStatusResponse, HealthResponse } from "@callsight/api-spec"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiError, HttpApiGroup, HttpMiddleware } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { SqlClient, SqlSchema } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { createHash } from "node:crypto"
import { createServer } from "node:http"


class FloorGroup extends HttpApiGroup.make("floor")
  .add(
    HttpApiEndpoint.get("getAnalysis", "/analysis/:call_id")
      .setPath(Schema.Struct({ call_id: Schema.String }))
      .setHeaders(Schema.Struct({ "x-api-key": Schema.String }))
      .addSuccess(AnalysisStatusResponse)
      .addError(HttpApiError.Unauthorized)
      .addError(HttpApiError.NotFound)
  )
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(HealthResponse))
{}

class FloorApi extends HttpApi.make("floor").add(FloorGroup) {}

const Timestamp = Schema.transform(Schema.DateFromSelf, Schema.String, {
  strict: true,
  decode: (date) => date.toISOString(),
  encode: (iso) => new Date(iso)
})
const NullableTimestamp = Schema.NullOr(Timestamp)

/** The service's status row (calls/CallsRepo.ts `CallStatusRow`), read by the same statement. */
const StatusRow = Schema.Struct({
  call_id: Schema.String,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  status: Schema.Literal("queued", "processing", "completed", "failed"),
  stage: Schema.String,
  progress: Schema.Number,
  created_at: Timestamp,
  started_at: NullableTimestamp,
  completed_at: NullableTimestamp,
  duration_s: Schema.NullOr(Schema.Number),
  error_code: Schema.NullOr(Schema.String),
  error_message: Schema.NullOr(Schema.String),
  occurred_at: Timestamp,
  deal_id: Schema.NullOr(Schema.String),
  account_id: Schema.NullOr(Schema.String),
  overall_score: Schema.NullOr(Schema.Number),
  talk_ratio: Schema.NullOr(Schema.Number),
  speakers: Schema.NullOr(Schema.Number),
  transcript_available: Schema.Boolean,
  credits_charged: Schema.Number,
  attendees: Schema.Array(Schema.String),
  account_name: Schema.NullOr(Schema.String),
  account_domain: Schema.NullOr(Schema.String),
  external_deal_id: Schema.NullOr(Schema.String)
})

const FloorLive = HttpApiBuilder.group(FloorApi, "floor", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const findKey = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ key_id: Schema.String, client_id: Schema.String }),
      execute: (hash) => sql`SELECT key_id, client_id FROM api_keys WHERE key_hash = ${hash} AND revoked_at IS NULL`
    })
    const findStatus = SqlSchema.findOne({
      Request: Schema.Struct({ clientId: Schema.String, callId: Schema.String }),
      Result: StatusRow,
      execute: ({ callId, clientId }) =>
        sql`SELECT call_id, external_call_id, closer_email, status, stage, progress, created_at, started_at,
                   completed_at, duration_s, error_code, error_message, occurred_at, deal_id, account_id,
                   (result -> 'scorecard' ->> 'overall')::float8 AS overall_score,
                   (result -> 'metrics' ->> 'talk_ratio')::float8 AS talk_ratio,
                   jsonb_array_length(result -> 'speakers') AS speakers,
                   COALESCE(jsonb_typeof(result -> 'transcript') = 'array', false) AS transcript_available,
                   (SELECT COALESCE(-SUM(delta), 0)::int FROM credit_ledger l
                    WHERE l.call_id = calls.call_id AND l.reason = 'analysis') AS credits_charged,
                   attendees,
                   (SELECT a.name FROM accounts a WHERE a.account_id = calls.account_id) AS account_name,
                   (SELECT a.domain FROM accounts a WHERE a.account_id = calls.account_id) AS account_domain,
                   (SELECT d.external_deal_id FROM deals d WHERE d.deal_id = calls.deal_id) AS external_deal_id
            FROM calls WHERE client_id = ${clientId} AND call_id = ${callId}`
    })
    const recentPing = yield* Effect.cachedWithTTL(Effect.either(Effect.timed(sql`SELECT 1`)), Duration.seconds(1))
    const startedAt = Date.now()

    return handlers
      .handle("getAnalysis", ({ headers, path }) =>
        Effect.gen(function* () {
          const key = yield* findKey(createHash("sha256").update(headers["x-api-key"]).digest("hex"))
          if (Option.isNone(key)) return yield* new HttpApiError.Unauthorized()
          const found = yield* findStatus({ clientId: key.value.client_id, callId: path.call_id })
          if (Option.isNone(found)) return yield* new HttpApiError.NotFound()
          const call = found.value
          const completed = call.status === "completed"
          return {
            call_id: call.call_id as typeof AnalysisStatusResponse.Type["call_id"],
            external_call_id: call.external_call_id,
            status: call.status,
            stage: (completed ? "done" : call.stage) as typeof AnalysisStatusResponse.Type["stage"],
            progress: call.progress,
            created_at: call.created_at,
            started_at: call.started_at,
            completed_at: call.completed_at,
            duration_s: call.duration_s,
            credits_charged: call.credits_charged,
            requested_call_type: null,
            requested_rep_channel: null,
            meeting_at: call.occurred_at,
            account: call.account_id === null || call.account_name === null
              ? null
              : { account_id: call.account_id, name: call.account_name, domain: call.account_domain },
            deal_id: call.deal_id,
            external_deal_id: call.external_deal_id,
            attendees: call.attendees,
            error: call.error_code === null ? null : { code: call.error_code, message: call.error_message ?? "" },
            summary: completed && call.speakers !== null
              ? {
                overall_score: call.overall_score,
                talk_ratio: call.talk_ratio,
                speakers: call.speakers,
                transcript_available: call.transcript_available
              }
              : null
          } as unknown as typeof AnalysisStatusResponse.Type
        }).pipe(Effect.orDie))
      .handle("health", () =>
        // the service's answer (api-spec HealthResponse), field for field
        Effect.map(recentPing, (ping) => ({
          status: ping._tag === "Right" ? ("ok" as const) : ("degraded" as const),
          version: "0.1.0",
          api_version: "1.0.0",
          uptime_s: Math.round((Date.now() - startedAt) / 1000),
          database: {
            backend: "postgres" as const,
            connected: ping._tag === "Right",
            latency_ms: ping._tag === "Right" ? Math.round(Duration.toMillis(ping.right[0]) * 1000) / 1000 : null,
            error: ping._tag === "Left" ? ping.left.message : null
          }
        })))
  })
)

const SqlLive = PgClient.layer({
  url: Redacted.make(process.env.DATABASE_URL ?? ""),
  maxConnections: Number(process.env.DB_POOL_MAX ?? 10)
})

// the platform opens a span per request unless told not to: no tracing here
const ServerLive = HttpMiddleware.withTracerDisabledWhen(HttpApiBuilder.serve(), () => true).pipe(
  Layer.provide(HttpApiBuilder.api(FloorApi).pipe(Layer.provide(FloorLive))),
  Layer.provide(SqlLive),
  Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" }))
)

NodeRuntime.runMain(Layer.launch(ServerLive))
