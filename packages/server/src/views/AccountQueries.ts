/**
 * What the account views read: counts and dates over the tenant's calls, closers, profiles,
 * outcome truth, API keys and events. Each query takes the tenant first; times are answered as
 * the wire's ISO-8601 strings.
 */
import { AnalysisFailure, ClientId, type Sees } from "@callsight/api-spec"
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

/** A count per status; statuses without rows are absent. */
const StatusCount = Schema.Struct({ status: Schema.String, n: Schema.Number })

const ScoreWeek = Schema.Struct({ period_start: Schema.String, calls: Schema.Number, average_score: Schema.NullOr(Schema.Number) })

const CloserSummary = Schema.Struct({ verified: Schema.Number, total: Schema.Number, first: NullableIsoTimestamp })

const RecentFailures = Schema.Struct({ n: Schema.Number, first: NullableIsoTimestamp })

const Milestones = Schema.Struct({
  profile_saved: NullableIsoTimestamp,
  closer_added: NullableIsoTimestamp,
  closer_verified: NullableIsoTimestamp,
  first_call_analysed: NullableIsoTimestamp,
  first_outcome_recorded: NullableIsoTimestamp,
  coaching_welcome_done: NullableIsoTimestamp
})

const ProcessingTimes = Schema.Struct({
  median: Schema.NullOr(Schema.Number),
  p95: Schema.NullOr(Schema.Number),
  sample: Schema.Number,
  since: IsoTimestamp
})

const FailureRow = Schema.Struct({ ...AnalysisFailure.fields, failed_at: IsoTimestamp })

const ApiHealth = Schema.Struct({
  keys: Schema.Number,
  last_success_at: NullableIsoTimestamp,
  last_error_at: NullableIsoTimestamp,
  last_error: Schema.NullOr(Schema.String),
  events_7d: Schema.Number,
  errors_7d: Schema.Number
})

/** The recording bot: its setting (recorder/ owns the table; read here, not imported) and its events. */
const RecorderHealth = Schema.Struct({
  active: Schema.Boolean,
  activated_at: NullableIsoTimestamp,
  last_success_at: NullableIsoTimestamp,
  last_error_at: NullableIsoTimestamp,
  last_error: Schema.NullOr(Schema.String),
  events_7d: Schema.Number,
  errors_7d: Schema.Number
})

/**
 * One integration of the tenant for the health KPIs: the closers' calendar or video connections,
 * crm-a, or the LLM providers (their tables are the integrations feature's; read here, not imported).
 */
const ConnectionHealth = Schema.Struct({
  integration: Schema.String,
  connected: Schema.Number,
  in_error: Schema.Number,
  last_success_at: NullableIsoTimestamp,
  last_error_at: NullableIsoTimestamp,
  last_error: Schema.NullOr(Schema.String),
  events_7d: Schema.Number,
  errors_7d: Schema.Number,
  token_expires_at: NullableIsoTimestamp
})

/** A connection of a closer whose tokens stopped working. */
const BrokenConnection = Schema.Struct({
  kind: Schema.String,
  closer_email: Schema.String,
  last_error: Schema.NullOr(Schema.String),
  since: NullableIsoTimestamp
})

/** A query of one tenant. */
type TenantQuery = (clientId: string) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>

const all = <A, I>(Result: Schema.Schema<A, I>, execute: TenantQuery) => Rows.findAll({ Request: ClientId, Result, execute })
const one = <A, I>(Result: Schema.Schema<A, I>, execute: TenantQuery) => Rows.single({ Request: ClientId, Result, execute })

export class AccountQueries extends Effect.Service<AccountQueries>()("AccountQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The tenant's calls of the last 7 days (the operational-trust window). */
    const lastWeek = (clientId: string) => sql`client_id = ${clientId} AND created_at > now() - interval '7 days'`

    /** The last 4 weeks (Monday to Sunday, UTC; a call in the week its meeting took place), oldest first, with their calls and average score. */
    /** Whose calls a query reads: the tenant's, those a rep sees (`Sees.ts`). */
    const Seen = Schema.Struct({ tenantId: ClientId, sees: SeesSchema })

    const scoreTrendQuery = Rows.findAll({
      Request: Seen,
      Result: ScoreWeek,
      execute: ({ sees, tenantId }) =>
        // the calls of the 4 weeks counted by week first, then set against the weeks: joining the weeks to the
        // calls row by row was estimated at millions of rows at scale, and paid a JIT compilation for it
        sql`SELECT to_char(w.start, 'YYYY-MM-DD') AS period_start, COALESCE(x.calls, 0)::int AS calls, x.average_score
            FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '3 weeks',
                                 date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week') AS w(start)
            LEFT JOIN (
              SELECT date_trunc('week', c.occurred_at AT TIME ZONE 'UTC') AS start, count(*) AS calls, avg(c.overall_score) AS average_score
              FROM calls c
              WHERE c.client_id = ${tenantId} AND c.status = 'completed' AND ${seenBy(sql, sees, "c.closer_email")}
                AND c.occurred_at >= (date_trunc('week', now() AT TIME ZONE 'UTC') - interval '3 weeks') AT TIME ZONE 'UTC'
              GROUP BY 1) x ON x.start = w.start
            ORDER BY w.start`
    })

    /** Closers not removed, those of them verified, and when the first closer was added. */
    const closerSummary = one(CloserSummary, (clientId) =>
      sql`SELECT count(*) FILTER (WHERE email_verified_at IS NOT NULL AND status <> 'removed')::int AS verified,
                 count(*) FILTER (WHERE status <> 'removed')::int AS total, min(created_at) AS first
          FROM closers WHERE client_id = ${clientId}`)

    /** Analyses failed in the last 7 days, and when the first of them failed. */
    const recentFailuresQuery = Rows.single({
      Request: Seen,
      Result: RecentFailures,
      execute: ({ sees, tenantId }) =>
        sql`SELECT count(*)::int AS n, min(completed_at) AS first FROM calls c
            WHERE client_id = ${tenantId} AND status = 'failed' AND completed_at > now() - interval '7 days'
              AND ${seenBy(sql, sees, "c.closer_email")}`
    })

    const callsByStatusSinceQuery = Rows.findAll({
      Request: Schema.Struct({ tenantId: ClientId, sees: SeesSchema, since: Schema.String }),
      Result: StatusCount,
      execute: ({ sees, since, tenantId }) =>
        sql`SELECT status, count(*)::int AS n FROM calls c
            WHERE client_id = ${tenantId} AND created_at >= ${since}::timestamptz AND ${seenBy(sql, sees, "c.closer_email")}
            GROUP BY status`
    })

    const closersByStatus = all(StatusCount, (clientId) =>
      sql`SELECT status, count(*)::int AS n FROM closers WHERE client_id = ${clientId} GROUP BY status`)

    /** When each onboarding step the service can see was first done; null while not done. */
    const milestones = one(Milestones, (clientId) =>
      sql`SELECT
            LEAST((SELECT updated_at FROM market_profiles WHERE client_id = ${clientId}),
                  (SELECT updated_at FROM lead_context_profiles WHERE client_id = ${clientId})) AS profile_saved,
            (SELECT min(created_at) FROM closers WHERE client_id = ${clientId}) AS closer_added,
            (SELECT min(email_verified_at) FROM closers WHERE client_id = ${clientId}) AS closer_verified,
            (SELECT min(completed_at) FROM calls WHERE client_id = ${clientId} AND status = 'completed') AS first_call_analysed,
            (SELECT min(created_at) FROM outcome_truth WHERE client_id = ${clientId}) AS first_outcome_recorded,
            -- the coaching feature's table, read here: the first user of the tenant to finish the welcome
            (SELECT min(welcome_completed_at) FROM coaching_onboarding WHERE client_id = ${clientId}) AS coaching_welcome_done`)

    const lastWeekByStatus = all(StatusCount, (clientId) =>
      sql`SELECT status, count(*)::int AS n FROM calls WHERE ${lastWeek(clientId)} GROUP BY status`)

    /** Processing times (start to end, in seconds) of the last 7 days' completed analyses, and the window's start. */
    const processingTimes = one(ProcessingTimes, (clientId) =>
      sql`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - started_at))::float8 AS median,
                 percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - started_at))::float8 AS p95,
                 count(*)::int AS sample, now() - interval '7 days' AS since
          FROM calls WHERE ${lastWeek(clientId)} AND status = 'completed' AND started_at IS NOT NULL`)

    /** The last 7 days' 10 latest failures; without an error code `unknown`, without a message empty. */
    const latestFailures = all(FailureRow, (clientId) =>
      sql`SELECT call_id, external_call_id, COALESCE(completed_at, created_at) AS failed_at, stage,
                 COALESCE(error_code, 'unknown') AS code, COALESCE(error_message, '') AS message
          FROM calls WHERE ${lastWeek(clientId)} AND status = 'failed'
          ORDER BY COALESCE(completed_at, created_at) DESC, call_id LIMIT 10`)

    const lastCompleted = one(Schema.Struct({ at: NullableIsoTimestamp }), (clientId) =>
      sql`SELECT max(completed_at) AS at FROM calls WHERE client_id = ${clientId} AND status = 'completed'`)

    /** The API integration: live keys, and the tenant's `api` events of the last 7 days. */
    const apiHealth = one(ApiHealth, (clientId) =>
      sql`SELECT (SELECT count(*)::int FROM api_keys WHERE client_id = ${clientId} AND revoked_at IS NULL) AS keys,
                 (SELECT max(received_at) FROM call_events WHERE client_id = ${clientId} AND platform = 'api' AND status = 'ok') AS last_success_at,
                 e.received_at AS last_error_at, e.error AS last_error,
                 (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = 'api'
                    AND received_at > now() - interval '7 days') AS events_7d,
                 (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = 'api' AND status = 'error'
                    AND received_at > now() - interval '7 days') AS errors_7d
          FROM (SELECT 1) one
          LEFT JOIN LATERAL (SELECT received_at, error FROM call_events
                             WHERE client_id = ${clientId} AND platform = 'api' AND status = 'error'
                             ORDER BY received_at DESC LIMIT 1) e ON true`)

    /** The recording bot: active since when, and the tenant's `recorder` events of the last 7 days. */
    const recorderHealth = one(RecorderHealth, (clientId) =>
      sql`SELECT COALESCE(s.active, false) AS active, CASE WHEN s.active THEN s.activated_at END AS activated_at,
                 (SELECT max(received_at) FROM call_events WHERE client_id = ${clientId} AND platform = 'recorder' AND status = 'ok') AS last_success_at,
                 e.received_at AS last_error_at, e.error AS last_error,
                 (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = 'recorder'
                    AND received_at > now() - interval '7 days') AS events_7d,
                 (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = 'recorder' AND status = 'error'
                    AND received_at > now() - interval '7 days') AS errors_7d
          FROM (SELECT 1) one
          LEFT JOIN recorder_settings s ON s.client_id = ${clientId}
          LEFT JOIN LATERAL (SELECT received_at, error FROM call_events
                             WHERE client_id = ${clientId} AND platform = 'recorder' AND status = 'error'
                             ORDER BY received_at DESC LIMIT 1) e ON true`)

    /** The tenant's events of one platform over 7 days: how many, how many failed, the latest failure. */
    const eventsOf = (clientId: string, platform: string) =>
      sql`(SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = ${platform}
             AND received_at > now() - interval '7 days') AS events_7d,
          (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = ${platform} AND status = 'error'
             AND received_at > now() - interval '7 days') AS errors_7d`

    /** The closers' calendar and video connections, crm-a and the LLM providers, as the health KPIs show them. */
    const connectionHealth = all(ConnectionHealth, (clientId) =>
      sql`SELECT k.kind AS integration,
                 count(ci.closer_id) FILTER (WHERE ci.status = 'connected' AND c.status <> 'removed')::int AS connected,
                 count(ci.closer_id) FILTER (WHERE ci.status = 'error' AND c.status <> 'removed')::int AS in_error,
                 max(ci.last_success_at) AS last_success_at, max(ci.last_error_at) AS last_error_at,
                 (array_agg(ci.last_error ORDER BY ci.last_error_at DESC NULLS LAST))[1] AS last_error,
                 (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = k.kind
                    AND received_at > now() - interval '7 days') AS events_7d,
                 (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = k.kind AND status = 'error'
                    AND received_at > now() - interval '7 days') AS errors_7d,
                 min(ci.token_expires_at) FILTER (WHERE ci.status = 'connected' AND c.status <> 'removed') AS token_expires_at
          FROM (VALUES ('calendar'), ('video')) AS k(kind)
          LEFT JOIN closer_integrations ci ON ci.client_id = ${clientId} AND ci.kind = k.kind
          LEFT JOIN closers c ON c.closer_id = ci.closer_id
          GROUP BY k.kind
          UNION ALL
          SELECT 'crm-a', count(*) FILTER (WHERE status = 'connected')::int, count(*) FILTER (WHERE status = 'error')::int,
                 max(last_sync_at), max(CASE WHEN last_error IS NOT NULL THEN updated_at END), max(last_error),
                 ${eventsOf(clientId, "crm-a")}, NULL
          FROM crm_connections WHERE client_id = ${clientId} AND provider = 'crm-a'
          UNION ALL
          SELECT 'llm', count(*)::int, count(*) FILTER (WHERE last_error IS NOT NULL)::int,
                 max(last_used_at), max(CASE WHEN last_error IS NOT NULL THEN updated_at END), max(last_error),
                 ${eventsOf(clientId, "llm")}, NULL
          FROM llm_integrations WHERE client_id = ${clientId}`)

    /** The integrations the cockpit lists: closers connected per kind, CRMs connected, LLM providers saved. */
    const integrationSummary = one(
      Schema.Struct({
        calendar_connected: Schema.Number,
        video_connected: Schema.Number,
        crm: Schema.Array(Schema.String),
        llm: Schema.Array(Schema.String)
      }),
      (clientId) =>
        sql`SELECT
              (SELECT count(*)::int FROM closer_integrations ci JOIN closers c ON c.closer_id = ci.closer_id
               WHERE ci.client_id = ${clientId} AND ci.kind = 'calendar' AND ci.status = 'connected' AND c.status <> 'removed') AS calendar_connected,
              (SELECT count(*)::int FROM closer_integrations ci JOIN closers c ON c.closer_id = ci.closer_id
               WHERE ci.client_id = ${clientId} AND ci.kind = 'video' AND ci.status = 'connected' AND c.status <> 'removed') AS video_connected,
              COALESCE((SELECT json_agg(provider ORDER BY provider) FROM crm_connections
                        WHERE client_id = ${clientId} AND status = 'connected'), '[]'::json) AS crm,
              COALESCE((SELECT json_agg(provider ORDER BY provider) FROM llm_integrations WHERE client_id = ${clientId}), '[]'::json) AS llm`
    )

    /** The closers' connections in error (their tokens refused), newest first. */
    const brokenConnections = all(BrokenConnection, (clientId) =>
      sql`SELECT ci.kind, c.email AS closer_email, ci.last_error, ci.last_error_at AS since
          FROM closer_integrations ci JOIN closers c ON c.closer_id = ci.closer_id
          WHERE ci.client_id = ${clientId} AND ci.status = 'error' AND c.status <> 'removed'
          ORDER BY ci.last_error_at DESC NULLS LAST, c.email`)

    return {
      connectionHealth,
      integrationSummary,
      brokenConnections,
      recorderHealth,
      /** The last four weeks' completed calls and their average score, of the calls `sees` sees. */
      scoreTrend: (clientId: ClientId, sees: Sees) => scoreTrendQuery({ tenantId: clientId, sees }),
      closerSummary,
      /** Failed analyses of the last 7 days (of the calls `sees` sees). */
      recentFailures: (clientId: ClientId, sees: Sees) => recentFailuresQuery({ tenantId: clientId, sees }),
      /** The tenant's calls created since `since` (ISO 8601), by status (of the calls `sees` sees). */
      callsByStatusSince: (clientId: ClientId, sees: Sees, since: string) => callsByStatusSinceQuery({ tenantId: clientId, sees, since }),
      closersByStatus,
      milestones,
      lastWeekByStatus,
      processingTimes,
      latestFailures,
      lastCompleted: (clientId: ClientId) => Effect.map(lastCompleted(clientId), (row) => row.at),
      apiHealth
    } as const
  })
}) {}
