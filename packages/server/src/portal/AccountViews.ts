/**
 * The account's read-only views: the cockpit, onboarding and activation, operational trust (the
 * tenant's analysis pipeline over 7 days) and integration health. One implementation: the
 * assistant interface serves the same views (spec 4.9) from here.
 *
 * They answer from what the service has: the recording bot, calendar, video, CRM and LLM
 * integrations and coaching are not built yet, so they read as not connected and their onboarding
 * steps as not done (DOMAIN.md lists them; the README says so), never as made-up progress.
 */
import type {
  AccountAlert,
  AccountCockpit,
  HealthKpis,
  OnboardingActivation,
  OperationalTrust
} from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { PlanUsage } from "../billing/PlanUsage.js"
import { LedgerRepo } from "../billing/LedgerRepo.js"

/** Credits free for new uploads below which the cockpit warns. */
export const LOW_CREDITS = 3
/** Failed analyses within 7 days from which the cockpit warns. */
export const REPEATED_FAILURES = 3

type Status = "queued" | "processing" | "completed" | "failed"
type CloserStatus = "pending_verification" | "active" | "paused" | "removed"

const byStatus = <K extends string>(keys: ReadonlyArray<K>, rows: ReadonlyArray<{ readonly status: string; readonly n: number }>) =>
  Object.fromEntries(keys.map((k) => [k, rows.find((r) => r.status === k)?.n ?? 0])) as Record<K, number>

const STATUSES: ReadonlyArray<Status> = ["queued", "processing", "completed", "failed"]
const CLOSER_STATUSES: ReadonlyArray<CloserStatus> = ["pending_verification", "active", "paused", "removed"]

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null
const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10)

export class AccountViews extends Effect.Service<AccountViews>()("AccountViews", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* LedgerRepo
    const planUsage = yield* PlanUsage

    /** The last 4 weeks (Monday to Sunday, UTC), oldest first, with their calls and average score. */
    const scoreTrend = (clientId: string) =>
      sql<{ period_start: string; calls: number; average_score: number | null }>`
        SELECT to_char(w.start, 'YYYY-MM-DD') AS period_start, count(c.call_id)::int AS calls,
               avg((c.result -> 'scorecard' ->> 'overall')::float8) AS average_score
        FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '3 weeks',
                             date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week') AS w(start)
        LEFT JOIN calls c ON c.client_id = ${clientId} AND c.status = 'completed'
          AND c.completed_at >= w.start AT TIME ZONE 'UTC' AND c.completed_at < (w.start + interval '1 week') AT TIME ZONE 'UTC'
        GROUP BY w.start ORDER BY w.start`

    const alerts = (clientId: string) =>
      Effect.gen(function* () {
        const free = (yield* ledger.balance(clientId)) - (yield* ledger.reserved(clientId))
        const [closers] = yield* sql<{ verified: number; total: number; first: Date | null }>`
          SELECT count(*) FILTER (WHERE email_verified_at IS NOT NULL AND status <> 'removed')::int AS verified,
                 count(*) FILTER (WHERE status <> 'removed')::int AS total, min(created_at) AS first
          FROM closers WHERE client_id = ${clientId}`
        const [failures] = yield* sql<{ n: number; first: Date | null }>`
          SELECT count(*)::int AS n, min(completed_at) AS first FROM calls
          WHERE client_id = ${clientId} AND status = 'failed' AND completed_at > now() - interval '7 days'`
        const out: Array<typeof AccountAlert.Type> = []
        if (free < LOW_CREDITS) {
          out.push({
            code: "credits_low",
            severity: free < 1 ? "critical" : "warning",
            message: free < 1
              ? "No credit is free: new uploads are refused (402)."
              : `${free} credit${free === 1 ? "" : "s"} left for new uploads.`,
            fix_hint: "Buy credits or ask your Callsight contact to add them.",
            since: null
          })
        }
        if (closers!.verified === 0) {
          out.push({
            code: "no_verified_closer",
            severity: "warning",
            message: closers!.total === 0 ? "No closer has been added yet." : "No closer has confirmed their e-mail yet.",
            fix_hint: closers!.total === 0
              ? "Add your sales reps as closers: POST /v1/client-portal/closers."
              : "Ask your closers to click the link in their verification e-mail, or send it again.",
            since: iso(closers!.first)
          })
        }
        if (failures!.n >= REPEATED_FAILURES) {
          out.push({
            code: "repeated_failures",
            severity: "warning",
            message: `${failures!.n} analyses failed in the last 7 days.`,
            fix_hint: "See the failures and their reasons in operational-trust.",
            since: iso(failures!.first)
          })
        }
        return out
      })

    const cockpit = Effect.fn("AccountViews.cockpit")(function* (clientId: string) {
      // the session's tenant exists (deleting a tenant deletes its sessions)
      const usage = yield* Effect.catchTag(planUsage.usage(clientId), "NotFound", Effect.die)
      const [tenant] = yield* sql<{ company_name: string; is_test: boolean }>`
        SELECT company_name, is_test FROM tenants WHERE client_id = ${clientId}`
      const monthCalls = yield* sql<{ status: string; n: number }>`
        SELECT status, count(*)::int AS n FROM calls
        WHERE client_id = ${clientId} AND created_at >= ${usage.period_start}::timestamptz GROUP BY status`
      const closers = yield* sql<{ status: string; n: number }>`
        SELECT status, count(*)::int AS n FROM closers WHERE client_id = ${clientId} GROUP BY status`
      const trend = yield* scoreTrend(clientId)
      const scored = trend.filter((w) => w.average_score !== null)
      const calls = scored.reduce((n, w) => n + w.calls, 0)
      const allowance = usage.ingests_included + usage.bonus_ingests
      return {
        client_id: clientId,
        company_name: tenant!.company_name,
        plan: usage.plan,
        is_test: tenant!.is_test,
        credits_balance: usage.credits_balance,
        month: {
          period_start: usage.period_start,
          period_end: usage.period_end,
          calls_by_status: byStatus(STATUSES, monthCalls),
          ingests_included: allowance,
          ingests_used: usage.ingests_used,
          ingests_remaining: usage.remaining
        },
        average_score: calls === 0 ? null : round1(scored.reduce((s, w) => s + w.average_score! * w.calls, 0) / calls),
        score_trend: trend.map((w) => ({ ...w, average_score: round1(w.average_score) })),
        closers_by_status: byStatus(CLOSER_STATUSES, closers),
        integrations: { calendar_connected: 0, video_connected: 0, crm: [], llm: [], recorder_active: false },
        open_alerts: yield* alerts(clientId),
        generated_at: new Date().toISOString()
      } satisfies typeof AccountCockpit.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const onboarding = Effect.fn("AccountViews.onboarding")(function* (clientId: string) {
      const [row] = yield* sql<{
        profile_saved: Date | null
        closer_added: Date | null
        closer_verified: Date | null
        first_call_analysed: Date | null
        first_outcome_recorded: Date | null
      }>`
        SELECT
          LEAST((SELECT updated_at FROM market_profiles WHERE client_id = ${clientId}),
                (SELECT updated_at FROM lead_context_profiles WHERE client_id = ${clientId})) AS profile_saved,
          (SELECT min(created_at) FROM closers WHERE client_id = ${clientId}) AS closer_added,
          (SELECT min(email_verified_at) FROM closers WHERE client_id = ${clientId}) AS closer_verified,
          (SELECT min(completed_at) FROM calls WHERE client_id = ${clientId} AND status = 'completed') AS first_call_analysed,
          (SELECT min(created_at) FROM outcome_truth WHERE client_id = ${clientId}) AS first_outcome_recorded`
      const steps = [
        { key: "profile_saved", label: "Save your market or lead-context profile", at: row!.profile_saved },
        { key: "closer_added", label: "Add a closer", at: row!.closer_added },
        { key: "closer_verified", label: "Have a closer confirm their e-mail", at: row!.closer_verified },
        // the recording bot and coaching are not built yet: these steps cannot be done
        { key: "recorder_connected", label: "Connect the call recorder", at: null },
        { key: "first_call_analysed", label: "Analyse your first call", at: row!.first_call_analysed },
        { key: "first_outcome_recorded", label: "Record the outcome of a call", at: row!.first_outcome_recorded },
        { key: "coaching_welcome_done", label: "Finish the coaching welcome", at: null }
      ] as const
      const done = steps.filter((s) => s.at !== null).length
      return {
        client_id: clientId,
        steps: steps.map((s) => ({ key: s.key, label: s.label, done: s.at !== null, done_at: iso(s.at) })),
        steps_done: done,
        steps_total: steps.length,
        activation_pct: Math.round((100 * done) / steps.length),
        next_step: steps.find((s) => s.at === null)?.key ?? null,
        generated_at: new Date().toISOString()
      } satisfies typeof OnboardingActivation.Type
    }, Effect.orDie)

    const operationalTrust = Effect.fn("AccountViews.operationalTrust")(function* (clientId: string) {
      const window = sql`client_id = ${clientId} AND created_at > now() - interval '7 days'`
      const counts = yield* sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM calls WHERE ${window} GROUP BY status`
      const [times] = yield* sql<{ median: number | null; p95: number | null; sample: number; since: Date }>`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - started_at))::float8 AS median,
               percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - started_at))::float8 AS p95,
               count(*)::int AS sample, now() - interval '7 days' AS since
        FROM calls WHERE ${window} AND status = 'completed' AND started_at IS NOT NULL`
      const failures = yield* sql<{
        call_id: string
        external_call_id: string | null
        failed_at: Date
        stage: string | null
        code: string | null
        message: string | null
      }>`
        SELECT call_id, external_call_id, COALESCE(completed_at, created_at) AS failed_at, stage, error_code AS code, error_message AS message
        FROM calls WHERE ${window} AND status = 'failed' ORDER BY COALESCE(completed_at, created_at) DESC, call_id LIMIT 10`
      const [last] = yield* sql<{ at: Date | null }>`
        SELECT max(completed_at) AS at FROM calls WHERE client_id = ${clientId} AND status = 'completed'`
      const analyses = byStatus(STATUSES, counts)
      const finished = analyses.completed + analyses.failed
      return {
        client_id: clientId,
        window_days: 7,
        since: times!.since.toISOString(),
        analyses_by_status: analyses,
        analyses_total: STATUSES.reduce((n, s) => n + analyses[s], 0),
        success_rate: finished === 0 ? null : Math.round((1000 * analyses.completed) / finished) / 1000,
        processing_time_s: { median: round1(times!.median), p95: round1(times!.p95), sample: times!.sample },
        recent_failures: failures.map((f) => ({
          call_id: f.call_id,
          external_call_id: f.external_call_id,
          failed_at: f.failed_at.toISOString(),
          stage: (f.stage as typeof OperationalTrust.Type["recent_failures"][number]["stage"]) ?? null,
          code: f.code ?? "unknown",
          message: f.message ?? ""
        })),
        last_completed_at: iso(last!.at),
        generated_at: new Date().toISOString()
      } satisfies typeof OperationalTrust.Type
    }, Effect.orDie)

    const healthKpis = Effect.fn("AccountViews.healthKpis")(function* (clientId: string) {
      const [api] = yield* sql<{
        keys: number
        last_success_at: Date | null
        last_error_at: Date | null
        last_error: string | null
        events_7d: number
        errors_7d: number
      }>`
        SELECT (SELECT count(*)::int FROM api_keys WHERE client_id = ${clientId} AND revoked_at IS NULL) AS keys,
               (SELECT max(received_at) FROM call_events WHERE client_id = ${clientId} AND platform = 'api' AND status = 'ok') AS last_success_at,
               e.received_at AS last_error_at, e.error AS last_error,
               (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = 'api'
                  AND received_at > now() - interval '7 days') AS events_7d,
               (SELECT count(*)::int FROM call_events WHERE client_id = ${clientId} AND platform = 'api' AND status = 'error'
                  AND received_at > now() - interval '7 days') AS errors_7d
        FROM (SELECT 1) one
        LEFT JOIN LATERAL (SELECT received_at, error FROM call_events
                           WHERE client_id = ${clientId} AND platform = 'api' AND status = 'error'
                           ORDER BY received_at DESC LIMIT 1) e ON true`
      const notConnected = (integration: string) => ({
        integration,
        provider: null,
        connected: false,
        last_success_at: null,
        last_error_at: null,
        last_error: null,
        events_7d: 0,
        error_rate_7d: null,
        token_expires_at: null
      })
      return {
        integrations: [
          {
            integration: "api",
            provider: "callsight",
            connected: api!.keys > 0,
            last_success_at: iso(api!.last_success_at),
            last_error_at: iso(api!.last_error_at),
            last_error: api!.last_error,
            events_7d: api!.events_7d,
            error_rate_7d: api!.events_7d === 0 ? null : Math.round((1000 * api!.errors_7d) / api!.events_7d) / 1000,
            token_expires_at: null
          },
          ...["recorder", "calendar", "video", "crm-a", "llm"].map(notConnected)
        ],
        generated_at: new Date().toISOString()
      } satisfies typeof HealthKpis.Type
    }, Effect.orDie)

    return { cockpit, onboarding, operationalTrust, healthKpis } as const
  }),
  dependencies: [LedgerRepo.Default, PlanUsage.Default]
}) {}
