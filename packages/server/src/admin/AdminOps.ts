/**
 * The staff's operations views (docs/domain.md, "Internal administration"):
 *
 * - `status`: tenants, calls by status, the queue (jobs waiting for a worker, the oldest one's
 *   age), the worker processes and their heartbeats, the version; with a tenant, that tenant's.
 * - `pipelineHealth`: the operational view of the last 7 days (calls made in it by status, the
 *   failure rate with its sample, processing times, jobs past their lease, the failure codes that
 *   dominate), from which alone the alert level comes; and the all-time raw counts beside it.
 * - `doctor`: per tenant, checks with a severity and a fix hint; the tenant's status is its worst
 *   failed check. Among them `no_transcriber` (a warning: its calls get no transcript; critical
 *   when its flag names a provider the server has no key for), and the same of the service itself
 *   (`service_checks`: `TRANSCRIBER` none).
 */
import type { AdminStatus, ClientId, DoctorCheck, DoctorReport, PipelineHealth } from "@callsight/api-spec"
import { AnalysisStatus, NotFound } from "@callsight/api-spec"
import { Effect } from "effect"
import { WorkersRepo } from "../calls/WorkersRepo.js"
import { AppConfig, type AppConfigShape, missingTranscriberKey } from "../config.js"
import { byStatus } from "../lib/Counts.js"
import {
  capitalized,
  CONTENT,
  describeSource,
  FLAG_WAY,
  hasTranscriber,
  PORTAL_WAY,
  SERVER_WAY,
  type TranscriberChoice,
  transcriberSource
} from "../lib/SpeechToTextSetup.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { VERSION } from "../version.js"
import { LOW_CREDITS, REPEATED_FAILURES } from "../views/AccountViews.js"
import { AdminQueries, type DoctorFacts } from "./AdminQueries.js"

/** The operational window of the pipeline health. */
export const WINDOW_DAYS = 7
/** Failure rate (of at least `MIN_FINISHED` finished analyses) from which the pipeline warns, and is critical. */
export const FAILURE_RATE_WARNING = 0.2
export const FAILURE_RATE_CRITICAL = 0.5
export const MIN_FINISHED = 5
/** Age of the oldest queued job from which the pipeline warns. */
export const QUEUE_AGE_WARNING_S = 600
/** Tokens expiring within this many days (without a refresh token) fail the doctor's check. */
export const TOKEN_EXPIRY_DAYS = 7

const STATUSES = AnalysisStatus.literals
const callsByStatus = (rows: ReadonlyArray<{ readonly status: string; readonly n: number }>) => byStatus(STATUSES, rows)

const round = (x: number | null, digits: number) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits)

type Check = typeof DoctorCheck.Type
const SEVERITY_ORDER = { critical: 0, warning: 1, ok: 2 } as const

const pass = (check: string, severity: Check["severity"], message: string, details: Check["details"] = null): Check => ({
  check, passed: true, severity, message, fix_hint: null, details
})
const fail = (check: string, severity: Check["severity"], message: string, fixHint: string, details: Check["details"] = null): Check => ({
  check, passed: false, severity, message, fix_hint: fixHint, details
})

/** What the transcriber checks read of the server's configuration. */
export type ServerSpeechToText = Pick<AppConfigShape, "transcriber" | "deepgramApiKey" | "assemblyaiApiKey" | "openaiApiKey" | "openaiBaseUrl">

/** The variable a provider needs that the server lacks, if any (OpenAI without a key: only a self-hosted server). */
const missingKey = (choice: TranscriberChoice, server: ServerSpeechToText): string | null =>
  missingTranscriberKey({ ...server, transcriber: choice }) ?? null

const CONTENT_DIMENSIONS = `${CONTENT} are not assessed`

/** Whether the tenant's calls get a transcript (`no_transcriber`): the order the analysis workers follow. */
export const transcriberCheck = (f: DoctorFacts, server: ServerSpeechToText): Check => {
  const source = transcriberSource({ integration: f.speech_integration, flag: f.transcriber_flag, server: server.transcriber })
  const details = { decided_by: source.by, provider: source.by === "integration" ? source.provider : source.choice }
  if (hasTranscriber(source)) {
    if (source.by === "integration") return pass("no_transcriber", "warning", `Calls are transcribed by ${describeSource(source)}`, details)
    const missing = missingKey(source.choice, server)
    return missing === null
      ? pass("no_transcriber", "warning", `Calls are transcribed by ${describeSource(source)}`, details)
      : fail(
        "no_transcriber",
        "critical",
        `${source.by === "tenant_flag" ? "The tenant's transcriber runtime flag" : "TRANSCRIBER"} names ${source.choice} but the ` +
          `service has no ${missing}: its calls fail (transcription_failed)`,
        `Set ${missing} in the service's environment, or change the flag (${FLAG_WAY("{client_id}")}), ` +
          `or ask the tenant to ${PORTAL_WAY}`,
        details
      )
  }
  return fail(
    "no_transcriber",
    "warning",
    source.by === "tenant_flag"
      ? `The tenant's transcriber runtime flag is none: its calls are analysed from their audio alone (${CONTENT_DIMENSIONS})`
      : `No speech-to-text provider: no speech-to-text integration of the tenant and the service's TRANSCRIBER is none; its calls are ` +
        `analysed from their audio alone (${CONTENT_DIMENSIONS})`,
    source.by === "tenant_flag"
      ? `Remove the flag or name a provider in it (${FLAG_WAY("{client_id}")}), or ask the tenant to ${PORTAL_WAY}`
      : `Ask the tenant to ${PORTAL_WAY}; or, for every tenant, ${SERVER_WAY}`,
    details
  )
}

/** The doctor's checks of the service itself: its own speech-to-text provider. */
export const serviceChecksOf = (server: ServerSpeechToText, tenants: ReadonlyArray<DoctorFacts>): ReadonlyArray<Check> => {
  const without = tenants.filter((f) => !hasTranscriber(transcriberSource({
    integration: f.speech_integration,
    flag: f.transcriber_flag,
    server: server.transcriber
  }))).length
  return [
    server.transcriber !== "none"
      ? pass("no_transcriber", "warning", `TRANSCRIBER is ${server.transcriber}: tenants without their own speech-to-text integration use it`, {
        transcriber: server.transcriber
      })
      : fail(
        "no_transcriber",
        "warning",
        `TRANSCRIBER is none: the calls of tenants without their own speech-to-text integration are analysed from their audio alone ` +
          `(${without} of the ${tenants.length} tenant${tenants.length === 1 ? "" : "s"} checked have no provider)`,
        `${capitalized(SERVER_WAY)}; or have each tenant ${PORTAL_WAY}`,
        { transcriber: "none", tenants_without: without, tenants_checked: tenants.length }
      )
  ]
}

/** The doctor's checks of one tenant. */
export const checksOf = (f: DoctorFacts, server: ServerSpeechToText): ReadonlyArray<Check> => [
  f.verified_closers > 0
    ? pass("no_verified_closer", "warning", `${f.verified_closers} closer${f.verified_closers === 1 ? "" : "s"} verified`)
    : fail(
      "no_verified_closer",
      "warning",
      f.closers === 0 ? "No closer has been added" : `None of the ${f.closers} closer${f.closers === 1 ? "" : "s"} confirmed their e-mail`,
      f.closers === 0
        ? "Ask the tenant to add its sales reps: POST /v1/client-portal/closers"
        : "Ask the closers to click the link of their verification e-mail, or send it again: POST /v1/client-portal/closers/{closer_id}/send-verification"
    ),
  f.credits_free >= LOW_CREDITS
    ? pass("credits_low", "warning", `${f.credits_free} credits free for uploads`, { credits_free: f.credits_free })
    : fail(
      "credits_low",
      f.credits_free < 1 ? "critical" : "warning",
      f.credits_free < 1 ? "No credit is free: uploads through the API are refused (402)" : `Only ${f.credits_free} credit${f.credits_free === 1 ? "" : "s"} free for uploads`,
      "Add credits: POST /v1/internal/admin/clients/{client_id}/credits",
      { credits_free: f.credits_free }
    ),
  f.failures_7d < REPEATED_FAILURES
    ? pass("repeated_failures", "warning", `${f.failures_7d} analyses failed in the last 7 days`, { failures_7d: f.failures_7d })
    : fail(
      "repeated_failures",
      "warning",
      `${f.failures_7d} analyses failed in the last 7 days`,
      "Read the failures and their codes in the tenant's operational trust (GET /v1/internal/assistant/operational-trust) or the pipeline health",
      { failures_7d: f.failures_7d }
    ),
  f.failing.length === 0
    ? pass("integrations_failing", "warning", "No integration reports an error")
    : fail(
      "integrations_failing",
      "warning",
      `${f.failing.length} integration${f.failing.length === 1 ? "" : "s"} failing: ` +
        f.failing.map((x) => (x.error === null ? x.what : `${x.what} (${x.error})`)).join("; "),
      "Reconnect them in the portal: the calendar or video of each closer, the CRM, the LLM key",
      { failing: f.failing.map((x) => ({ ...x })) }
    ),
  f.expiring.length === 0
    ? pass("tokens_expiring", "warning", `No token expires within ${TOKEN_EXPIRY_DAYS} days without a way to refresh it`)
    : (() => {
      const expired = f.expiring.filter((e) => Date.parse(e.expires_at) <= Date.now())
      return fail(
        "tokens_expiring",
        expired.length > 0 ? "critical" : "warning",
        f.expiring.map((e) =>
          `the ${e.kind} token of ${e.closer_email} ${Date.parse(e.expires_at) <= Date.now() ? "expired" : "expires"} ${new Date(e.expires_at).toISOString()}`
        ).join("; "),
        "The provider gave no refresh token: the closer must connect again (POST /v1/client-portal/closers/{closer_id}/integrations/{kind}/start)",
        { expiring: f.expiring.map((e) => ({ ...e, expires_at: new Date(e.expires_at).toISOString() })) }
      )
    })(),
  f.completed_30d === 0 || f.outcomes_30d > 0
    ? pass(
      "no_outcome_truth_30d",
      "warning",
      f.completed_30d === 0 ? "No call analysed in the last 30 days" : `${f.outcomes_30d} outcomes recorded in the last 30 days`,
      { last_outcome_at: f.last_outcome_at }
    )
    : fail(
      "no_outcome_truth_30d",
      "warning",
      `${f.completed_30d} calls analysed in the last 30 days and no outcome recorded`,
      "Ask the tenant to record what became of the deals (PUT /v1/client-portal/calls/{call_id}/outcome-truth; the backlog lists the calls), or connect its CRM",
      { last_outcome_at: f.last_outcome_at, completed_30d: f.completed_30d }
    ),
  !f.recorder_active || f.calendars_connected > 0
    ? pass("recorder_without_calendar", "warning", f.recorder_active ? `The recorder reads ${f.calendars_connected} calendars` : "The recorder is off")
    : fail(
      "recorder_without_calendar",
      "warning",
      "The recorder is on but no closer has a calendar connected: no meeting will be recorded",
      "Ask the closers to connect their calendars: POST /v1/client-portal/closers/{closer_id}/integrations/calendar/start"
    ),
  transcriberCheck(f, server)
]

export class AdminOps extends Effect.Service<AdminOps>()("AdminOps", {
  effect: Effect.gen(function* () {
    const queries = yield* AdminQueries
    const workers = yield* WorkersRepo
    const tenants = yield* TenantsRepo
    const config = yield* AppConfig

    const known = (clientId: ClientId | undefined) =>
      clientId === undefined
        ? Effect.void
        : Effect.flatMap(tenants.exists(clientId), (exists) => (exists ? Effect.void : Effect.fail(new NotFound({ message: `no client ${clientId}` }))))

    const status = Effect.fn("AdminOps.status")(function* (clientId: ClientId | undefined) {
      yield* known(clientId)
      const filter = clientId ?? null
      const counts = yield* queries.tenantCounts(filter)
      const queue = yield* queries.queue(filter)
      const processes = yield* workers.list
      return {
        version: VERSION,
        generated_at: new Date().toISOString(),
        client_id: clientId ?? null,
        tenants: {
          total: counts.total,
          test: counts.test,
          by_plan: { trial: counts.trial, starter: counts.starter, growth: counts.growth, scale: counts.scale }
        },
        calls_by_status: callsByStatus(yield* queries.callsByStatus(filter)),
        queue: { depth: queue.depth, oldest_queued_at: queue.oldest_queued_at, oldest_queued_age_s: round(queue.oldest_queued_age_s, 1) },
        workers: { alive: processes.filter((w) => w.alive).length, workers: processes }
      } satisfies typeof AdminStatus.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const pipelineHealth = Effect.fn("AdminOps.pipelineHealth")(function* () {
      const window = callsByStatus(yield* queries.windowByStatus)
      const times = yield* queries.processingTimes
      const stuck = yield* queries.pastLease
      const codes = yield* queries.failureCodes
      const queue = yield* queries.queue(null)
      const alive = (yield* workers.list).filter((w) => w.alive).length
      const allTime = callsByStatus(yield* queries.allTimeByStatus)
      const finished = window.completed + window.failed
      const failureRate = finished === 0 ? null : round(window.failed / finished, 4)
      const failures = codes.reduce((n, c) => n + c.count, 0)

      const reasons: Array<{ level: "warning" | "critical"; text: string }> = []
      if (failureRate !== null && finished >= MIN_FINISHED && failureRate >= FAILURE_RATE_CRITICAL) {
        reasons.push({ level: "critical", text: `${window.failed} of ${finished} analyses failed in ${WINDOW_DAYS} days` })
      } else if (failureRate !== null && finished >= MIN_FINISHED && failureRate >= FAILURE_RATE_WARNING) {
        reasons.push({ level: "warning", text: `${window.failed} of ${finished} analyses failed in ${WINDOW_DAYS} days` })
      }
      if (alive === 0 && (queue.depth > 0 || stuck.length > 0)) {
        reasons.push({ level: "critical", text: `${queue.depth + stuck.length} jobs wait and no worker is alive` })
      } else if (stuck.length > 0) {
        reasons.push({ level: "warning", text: `${stuck.length} job${stuck.length === 1 ? "" : "s"} past their lease: a worker stopped renewing` })
      }
      if (queue.oldest_queued_age_s !== null && queue.oldest_queued_age_s > QUEUE_AGE_WARNING_S) {
        reasons.push({ level: "warning", text: `the oldest queued job has waited ${Math.round(queue.oldest_queued_age_s)} s` })
      }
      return {
        generated_at: new Date().toISOString(),
        alert_level: reasons.some((r) => r.level === "critical") ? "critical" : reasons.length > 0 ? "warning" : "ok",
        alert_reasons: reasons.map((r) => r.text),
        operational: {
          window_days: WINDOW_DAYS,
          since: times.since,
          jobs_by_status: window,
          total: STATUSES.reduce((n, s) => n + window[s], 0),
          failure_rate: failureRate,
          finished,
          processing_time_s: { p50: round(times.p50, 1), p95: round(times.p95, 1), sample_size: times.sample_size },
          oldest_queued_age_s: round(queue.oldest_queued_age_s, 1),
          queue_depth: queue.depth,
          workers_alive: alive,
          past_lease: stuck.length,
          past_lease_jobs: stuck,
          failure_codes: codes.map((c) => ({ ...c, share: round(c.count / failures, 4)! })),
          recent_failures: yield* queries.recentFailures
        },
        all_time: {
          jobs_by_status: allTime,
          total: STATUSES.reduce((n, s) => n + allTime[s], 0),
          first_job_at: (yield* queries.allTime).first_job_at
        }
      } satisfies typeof PipelineHealth.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const doctor = Effect.fn("AdminOps.doctor")(function* (clientId: ClientId | undefined) {
      yield* known(clientId)
      const facts = yield* queries.doctorFacts(clientId ?? null)
      const tenantsChecked = facts.map((f) => {
        const checks = checksOf(f, config)
        const failed = checks.filter((c) => !c.passed)
        const status = failed.some((c) => c.severity === "critical") ? "critical" as const
          : failed.some((c) => c.severity === "warning") ? "warning" as const
          : "ok" as const
        return { client_id: f.client_id, company_name: f.company_name, plan: f.plan, status, checks }
      }).sort((a, b) => SEVERITY_ORDER[a.status] - SEVERITY_ORDER[b.status])
      return {
        generated_at: new Date().toISOString(),
        client_id: clientId ?? null,
        summary: {
          tenants_checked: tenantsChecked.length,
          ok: tenantsChecked.filter((t) => t.status === "ok").length,
          warning: tenantsChecked.filter((t) => t.status === "warning").length,
          critical: tenantsChecked.filter((t) => t.status === "critical").length
        },
        service_checks: serviceChecksOf(config, facts),
        tenants: tenantsChecked
      } satisfies typeof DoctorReport.Type
    }, Effect.catchTag("SqlError", Effect.die))

    return { status, pipelineHealth, doctor } as const
  }),
  dependencies: [AdminQueries.Default, WorkersRepo.Default, TenantsRepo.Default]
}) {}
