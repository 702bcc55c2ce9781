/**
 * What the staff's status, pipeline health and doctor read: counts over tenants, calls and their
 * analysis jobs (`analysis_jobs`), and per tenant the facts of the doctor's checks (closers,
 * credits, failures, outcome truth, the recorder and the integrations, whose tables belong to
 * other features and are read here, not imported). `clientId` null: every tenant.
 */
import { CallId, ClientId, Plan } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const MaybeTenant = Schema.NullOr(Schema.String)

const StatusCount = Schema.Struct({ status: Schema.String, n: Schema.Number })

const TenantCounts = Schema.Struct({
  total: Schema.Number,
  test: Schema.Number,
  trial: Schema.Number,
  starter: Schema.Number,
  growth: Schema.Number,
  scale: Schema.Number
})

const Queue = Schema.Struct({ depth: Schema.Number, oldest_queued_at: NullableIsoTimestamp, oldest_queued_age_s: Schema.NullOr(Schema.Number) })

const ProcessingTimes = Schema.Struct({
  p50: Schema.NullOr(Schema.Number),
  p95: Schema.NullOr(Schema.Number),
  sample_size: Schema.Number,
  since: IsoTimestamp
})

const StuckJob = Schema.Struct({
  job_id: Schema.String,
  call_id: CallId,
  client_id: ClientId,
  worker_id: Schema.NullOr(Schema.String),
  claimed_at: NullableIsoTimestamp,
  lease_expires_at: IsoTimestamp,
  attempts: Schema.Number
})

const Failure = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  failed_at: IsoTimestamp,
  error_code: Schema.String,
  message: Schema.String
})

const AllTime = Schema.Struct({ first_job_at: NullableIsoTimestamp })

const Failing = Schema.Struct({ what: Schema.String, error: Schema.NullOr(Schema.String) })
const Expiring = Schema.Struct({ kind: Schema.String, closer_email: Schema.String, expires_at: Schema.String })

export const DoctorFacts = Schema.Struct({
  client_id: ClientId,
  company_name: Schema.String,
  plan: Plan,
  closers: Schema.Number,
  verified_closers: Schema.Number,
  credits_free: Schema.Number,
  failures_7d: Schema.Number,
  completed_30d: Schema.Number,
  outcomes_30d: Schema.Number,
  last_outcome_at: NullableIsoTimestamp,
  recorder_active: Schema.Boolean,
  calendars_connected: Schema.Number,
  failing: Schema.Array(Failing),
  expiring: Schema.Array(Expiring),
  /** The tenant's speech-capable integration (the one that transcribes), and its `transcriber` runtime flag as saved. */
  speech_integration: Schema.NullOr(Schema.String),
  transcriber_flag: Schema.Unknown
})
export type DoctorFacts = typeof DoctorFacts.Type

/** The tenant filter of a query over a table aliased `alias`. */
export class AdminQueries extends Effect.Service<AdminQueries>()("AdminQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tenantIs = (alias: string, clientId: string | null) =>
      clientId === null ? sql`true` : sql`${sql.literal(alias)}.client_id = ${clientId}`

    const tenantCounts = Rows.single({
      Request: MaybeTenant,
      Result: TenantCounts,
      execute: (clientId) =>
        sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE t.is_test)::int AS test,
                   count(*) FILTER (WHERE t.plan = 'trial')::int AS trial, count(*) FILTER (WHERE t.plan = 'starter')::int AS starter,
                   count(*) FILTER (WHERE t.plan = 'growth')::int AS growth, count(*) FILTER (WHERE t.plan = 'scale')::int AS scale
            FROM tenants t WHERE ${tenantIs("t", clientId)}`
    })

    const callsByStatus = Rows.findAll({
      Request: MaybeTenant,
      Result: StatusCount,
      execute: (clientId) => sql`SELECT c.status, count(*)::int AS n FROM calls c WHERE ${tenantIs("c", clientId)} GROUP BY c.status`
    })

    /** Jobs waiting for a worker (new, or back-off before a retry), and the oldest one's age. */
    const queue = Rows.single({
      Request: MaybeTenant,
      Result: Queue,
      execute: (clientId) =>
        sql`SELECT count(*)::int AS depth, min(j.created_at) AS oldest_queued_at,
                   extract(epoch FROM now() - min(j.created_at))::float8 AS oldest_queued_age_s
            FROM analysis_jobs j JOIN calls c ON c.call_id = j.call_id
            WHERE j.state = 'pending' AND ${tenantIs("c", clientId)}`
    })

    // --- pipeline health: the 7-day operational window, then all time ------------------------

    const windowByStatus = Rows.findAll({
      Request: Schema.Void,
      Result: StatusCount,
      execute: () => sql`SELECT status, count(*)::int AS n FROM calls WHERE created_at > now() - interval '7 days' GROUP BY status`
    })

    const processingTimes = Rows.single({
      Request: Schema.Void,
      Result: ProcessingTimes,
      execute: () =>
        sql`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - started_at))::float8 AS p50,
                   percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - started_at))::float8 AS p95,
                   count(*)::int AS sample_size, now() - interval '7 days' AS since
            FROM calls WHERE created_at > now() - interval '7 days' AND status = 'completed' AND started_at IS NOT NULL`
    })

    /** Jobs running past their lease: their worker stopped renewing it (crashed, or cut off from the database). */
    const pastLease = Rows.findAll({
      Request: Schema.Void,
      Result: StuckJob,
      execute: () =>
        sql`SELECT j.call_id AS job_id, j.call_id, c.client_id, j.lease_owner AS worker_id, c.started_at AS claimed_at,
                   j.lease_expires_at, j.attempts
            FROM analysis_jobs j JOIN calls c ON c.call_id = j.call_id
            WHERE j.state = 'running' AND j.lease_expires_at < now()
            ORDER BY j.lease_expires_at, j.call_id`
    })

    const failureCodes = Rows.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ error_code: Schema.String, count: Schema.Number }),
      execute: () =>
        sql`SELECT COALESCE(error_code, 'unknown') AS error_code, count(*)::int AS count FROM calls
            WHERE created_at > now() - interval '7 days' AND status = 'failed'
            GROUP BY 1 ORDER BY count DESC, error_code`
    })

    const recentFailures = Rows.findAll({
      Request: Schema.Void,
      Result: Failure,
      execute: () =>
        sql`SELECT call_id, client_id, COALESCE(completed_at, created_at) AS failed_at, COALESCE(error_code, 'unknown') AS error_code,
                   COALESCE(error_message, '') AS message
            FROM calls WHERE created_at > now() - interval '7 days' AND status = 'failed'
            ORDER BY COALESCE(completed_at, created_at) DESC, call_id LIMIT 10`
    })

    const allTime = Rows.single({
      Request: Schema.Void,
      Result: AllTime,
      execute: () => sql`SELECT min(created_at) AS first_job_at FROM calls`
    })

    // --- the doctor ----------------------------------------------------------------------------

    const doctorFacts = Rows.findAll({
      Request: MaybeTenant,
      Result: DoctorFacts,
      execute: (clientId) =>
        sql`SELECT t.client_id, t.company_name, t.plan,
                   (SELECT count(*)::int FROM closers cl WHERE cl.client_id = t.client_id AND cl.status <> 'removed') AS closers,
                   (SELECT count(*)::int FROM closers cl WHERE cl.client_id = t.client_id AND cl.status <> 'removed'
                      AND cl.email_verified_at IS NOT NULL) AS verified_closers,
                   (SELECT COALESCE(sum(delta), 0)::int FROM credit_ledger l WHERE l.client_id = t.client_id)
                     - (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status IN ('queued', 'processing')
                          AND c.source = 'api'
                          AND NOT EXISTS (SELECT 1 FROM credit_ledger l WHERE l.call_id = c.call_id AND l.reason = 'analysis'))
                     AS credits_free,
                   (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status = 'failed'
                      AND c.completed_at > now() - interval '7 days') AS failures_7d,
                   (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status = 'completed'
                      AND c.completed_at > now() - interval '30 days') AS completed_30d,
                   (SELECT count(*)::int FROM outcome_truth o WHERE o.client_id = t.client_id
                      AND o.updated_at > now() - interval '30 days') AS outcomes_30d,
                   (SELECT max(o.updated_at) FROM outcome_truth o WHERE o.client_id = t.client_id) AS last_outcome_at,
                   COALESCE((SELECT r.active FROM recorder_settings r WHERE r.client_id = t.client_id), false) AS recorder_active,
                   (SELECT count(*)::int FROM closer_integrations ci JOIN closers cl ON cl.closer_id = ci.closer_id
                    WHERE ci.client_id = t.client_id AND ci.kind = 'calendar' AND ci.status = 'connected' AND cl.status <> 'removed')
                     AS calendars_connected,
                   COALESCE((SELECT json_agg(f ORDER BY f.what) FROM (
                       SELECT ci.kind || ' of ' || cl.email AS what, ci.last_error AS error
                       FROM closer_integrations ci JOIN closers cl ON cl.closer_id = ci.closer_id
                       WHERE ci.client_id = t.client_id AND ci.status = 'error' AND cl.status <> 'removed'
                       UNION ALL
                       SELECT 'crm ' || cc.provider, cc.last_error FROM crm_connections cc
                       WHERE cc.client_id = t.client_id AND (cc.status = 'error' OR cc.last_error IS NOT NULL)
                       UNION ALL
                       SELECT 'llm ' || li.provider, li.last_error FROM llm_integrations li
                       WHERE li.client_id = t.client_id AND li.last_error IS NOT NULL) f), '[]'::json) AS failing,
                   COALESCE((SELECT json_agg(e ORDER BY e.expires_at) FROM (
                       SELECT ci.kind, cl.email AS closer_email, ci.token_expires_at AS expires_at
                       FROM closer_integrations ci JOIN closers cl ON cl.closer_id = ci.closer_id
                       WHERE ci.client_id = t.client_id AND ci.status = 'connected' AND cl.status <> 'removed'
                         AND ci.sealed_refresh_token IS NULL AND ci.token_expires_at < now() + interval '7 days') e), '[]'::json)
                     AS expiring,
                   (SELECT li.provider FROM llm_integrations li WHERE li.client_id = t.client_id
                      AND li.provider IN ('deepgram', 'assemblyai', 'openai', 'openai-compatible')
                    ORDER BY li.provider IN ('deepgram', 'assemblyai') DESC, li.updated_at DESC, li.provider LIMIT 1) AS speech_integration,
                   (SELECT f.flags -> 'transcriber' FROM tenant_runtime_flags f WHERE f.client_id = t.client_id) AS transcriber_flag
            FROM tenants t WHERE ${tenantIs("t", clientId)}
            ORDER BY lower(t.company_name), t.client_id`
    })

    return {
      tenantCounts,
      callsByStatus,
      queue,
      windowByStatus: windowByStatus(undefined),
      processingTimes: processingTimes(undefined),
      pastLease: pastLease(undefined),
      failureCodes: failureCodes(undefined),
      recentFailures: recentFailures(undefined),
      allTime: allTime(undefined),
      allTimeByStatus: callsByStatus(null),
      doctorFacts
    } as const
  })
}) {}
