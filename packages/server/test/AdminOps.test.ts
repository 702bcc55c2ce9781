/**
 * The staff's operations views on data seeded in SQL: `status` (tenants, calls by status, the
 * queue and its oldest job, the worker processes' heartbeats, one tenant's with `client_id`),
 * `pipeline-health` (the 7-day operational view, from which alone the alert comes, beside the
 * all-time counts) and `doctor` (each check's verdict, severity and fix hint, per tenant).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { hostname } from "node:os"
import { admin } from "./utils/AudioRequests.js"
import { call } from "./utils/PortalRequests.js"
import { testServerLayer } from "./utils/TestServer.js"

const ADMIN = "/v1/internal/admin"

const get = (path: string, expected = 200) =>
  Effect.gen(function* () {
    const reply = yield* call("GET", `${ADMIN}${path}`, { headers: admin })
    expect(reply.status, `${path}: ${JSON.stringify(reply.body).slice(0, 400)}`).toBe(expected)
    return reply.body
  })

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString()
const DAY = 86_400

interface SeedCall {
  readonly id: string
  readonly tenant: string
  readonly status: "queued" | "processing" | "completed" | "failed"
  /** Seconds before now it was uploaded. */
  readonly age: number
  /** Seconds its analysis took (completed and failed calls). */
  readonly took?: number
  readonly errorCode?: string
  readonly job?: "pending" | "running" | "past_lease"
}

const insertCall = (c: SeedCall) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const created = ago(c.age)
    const started = c.status === "queued" ? null : ago(c.age - 1)
    const ended = c.status === "completed" || c.status === "failed" ? ago(c.age - 1 - (c.took ?? 5)) : null
    yield* sql`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, created_at, started_at, completed_at,
                                  error_code, error_message, result)
               VALUES (${c.id}, ${c.tenant}, ${c.status}, 'mp3', 'x', 1, 'x', ${created}, ${started}, ${ended},
                       ${c.errorCode ?? null}, ${c.errorCode === undefined ? null : `${c.errorCode}: details`},
                       ${c.status === "completed" ? JSON.stringify({ scorecard: { overall: 60 } }) : null}::jsonb)`
    const state = c.job === undefined ? (c.status === "completed" ? "done" : c.status === "failed" ? "failed" : "pending") : c.job === "pending" ? "pending" : "running"
    const lease = c.job === "past_lease" ? ago(30) : c.job === "running" ? new Date(Date.now() + 60_000).toISOString() : null
    yield* sql`INSERT INTO analysis_jobs (call_id, state, attempts, run_after, lease_owner, lease_expires_at, created_at)
               VALUES (${c.id}, ${state}, ${c.status === "queued" ? 0 : 1}, ${created}, ${lease === null ? null : "wrk_gone"}, ${lease}, ${created})`
  })

describe("staff operations", () => {
  layer(testServerLayer(), { excludeTestServices: true })("without a worker process", (it) => {
    it.effect("status and pipeline health: the queue, the 7-day operational view (the alerts' only source) and all-time counts apart", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan, is_test) VALUES
                     ('cli_s1', 'Sun', 'growth', false), ('cli_s2', 'Sky', 'trial', true), ('cli_s3', 'Sea', 'scale', false)`
        const calls: ReadonlyArray<SeedCall> = [
          ...[10, 20, 30, 40, 100].map((took, i) => ({ id: `call_done${i}`, tenant: "cli_s1", status: "completed" as const, age: DAY, took })),
          ...[0, 1, 2].map((i) => ({ id: `call_fail${i}`, tenant: "cli_s1", status: "failed" as const, age: 2 * DAY + 60 * i, errorCode: "decode_failed" })),
          { id: "call_fail3", tenant: "cli_s3", status: "failed", age: 3 * DAY, errorCode: "transcription_failed" },
          // outside the 7 days: raw counts only
          { id: "call_old_fail", tenant: "cli_s1", status: "failed", age: 30 * DAY, errorCode: "decode_failed" },
          { id: "call_old_done", tenant: "cli_s1", status: "completed", age: 40 * DAY, took: 500 },
          { id: "call_queued", tenant: "cli_s1", status: "queued", age: 1200, job: "pending" },
          { id: "call_queued2", tenant: "cli_s3", status: "queued", age: 120, job: "pending" },
          { id: "call_stuck", tenant: "cli_s1", status: "processing", age: 300, job: "past_lease" }
        ]
        for (const c of calls) yield* insertCall(c)

        const status = yield* get("/status")
        expect(status).toMatchObject({
          version: "0.1.0",
          client_id: null,
          tenants: { total: 3, test: 1, by_plan: { trial: 1, starter: 0, growth: 1, scale: 1 } },
          calls_by_status: { queued: 2, processing: 1, completed: 6, failed: 5 },
          queue: { depth: 2 },
          workers: { alive: 0, workers: [] }
        })
        expect(status.queue.oldest_queued_age_s).toBeGreaterThanOrEqual(1200)
        expect(status.queue.oldest_queued_age_s).toBeLessThan(1260)
        expect(Date.parse(status.queue.oldest_queued_at)).toBeLessThan(Date.now() - 1_199_000)

        const sea = yield* get("/status?client_id=cli_s3")
        expect(sea).toMatchObject({
          client_id: "cli_s3",
          tenants: { total: 1, test: 0, by_plan: { trial: 0, starter: 0, growth: 0, scale: 1 } },
          calls_by_status: { queued: 1, processing: 0, completed: 0, failed: 1 },
          queue: { depth: 1 }
        })
        expect(sea.queue.oldest_queued_age_s).toBeGreaterThanOrEqual(120)
        expect(sea.queue.oldest_queued_age_s).toBeLessThan(180)
        expect((yield* call("GET", `${ADMIN}/status?client_id=cli_nobody`, { headers: admin })).status).toBe(404)

        const health = yield* get("/pipeline-health")
        expect(health.operational).toMatchObject({
          window_days: 7,
          jobs_by_status: { queued: 2, processing: 1, completed: 5, failed: 4 },
          total: 12,
          // 4 failed of 9 finished: the failure 30 days ago is not in the window
          failure_rate: 0.4444,
          finished: 9,
          // percentile_cont over 10, 20, 30, 40, 100 s
          processing_time_s: { p50: 30, p95: 88, sample_size: 5 },
          queue_depth: 2,
          workers_alive: 0,
          past_lease: 1,
          failure_codes: [
            { error_code: "decode_failed", count: 3, share: 0.75 },
            { error_code: "transcription_failed", count: 1, share: 0.25 }
          ]
        })
        expect(Date.parse(health.operational.since)).toBeCloseTo(Date.now() - 7 * DAY * 1000, -5)
        expect(health.operational.past_lease_jobs).toEqual([
          expect.objectContaining({ job_id: "call_stuck", call_id: "call_stuck", client_id: "cli_s1", worker_id: "wrk_gone", attempts: 1 })
        ])
        expect(health.operational.recent_failures.map((f: any) => [f.call_id, f.error_code])).toEqual([
          ["call_fail0", "decode_failed"],
          ["call_fail1", "decode_failed"],
          ["call_fail2", "decode_failed"],
          ["call_fail3", "transcription_failed"]
        ])
        expect(health.operational.recent_failures[3]).toMatchObject({ client_id: "cli_s3", message: "transcription_failed: details" })
        expect(health.all_time).toEqual({
          jobs_by_status: { queued: 2, processing: 1, completed: 6, failed: 5 },
          total: 14,
          first_job_at: expect.any(String)
        })
        expect(Date.parse(health.all_time.first_job_at)).toBeLessThan(Date.now() - 39 * DAY * 1000)
        // from the window only: a failure rate over 0.2 warns, waiting jobs with no worker alive are critical
        expect(health.alert_level).toBe("critical")
        expect(health.alert_reasons.slice(0, 2)).toEqual(["4 of 9 analyses failed in 7 days", "3 jobs wait and no worker is alive"])
        expect(health.alert_reasons[2]).toMatch(/^the oldest queued job has waited 12\d\d s$/)

        // without the waiting jobs, the failure rate alone: a warning
        yield* sql`DELETE FROM calls WHERE call_id IN ('call_queued', 'call_queued2', 'call_stuck')`
        const calmer = yield* get("/pipeline-health")
        expect(calmer.alert_level).toBe("warning")
        expect(calmer.alert_reasons).toEqual(["4 of 9 analyses failed in 7 days"])
        expect(calmer.operational).toMatchObject({ past_lease: 0, queue_depth: 0, oldest_queued_age_s: null })
      }))

    it.effect("doctor: per tenant, each check with its verdict, severity and fix hint; the tenant's status is its worst failure", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES
                     ('cli_ok', 'Okay Co', 'growth'), ('cli_broke', 'Broke Co', 'trial'), ('cli_busy', 'Busy Co', 'starter')`
        // Okay Co: a verified closer, 10 credits, a call of last week with its outcome
        yield* sql`INSERT INTO closers (closer_id, client_id, email, full_name, status, email_verified_at)
                   VALUES ('clo_ok', 'cli_ok', 'ok@ok.test', 'Ok', 'active', now())`
        yield* sql`INSERT INTO credit_ledger (client_id, delta, reason) VALUES ('cli_ok', 10, 'purchase'), ('cli_busy', 2, 'purchase')`
        yield* insertCall({ id: "call_ok", tenant: "cli_ok", status: "completed", age: 7 * DAY })
        yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome) VALUES ('call_ok', 'cli_ok', 'won')`
        // and its own speech-to-text provider (TRANSCRIBER is none here)
        yield* sql`INSERT INTO llm_integrations (client_id, provider, sealed_key, key_last4) VALUES ('cli_ok', 'deepgram', 'x', 'abcd')`
        // Busy Co: its closer's calendar refused, its video token expiring without a refresh token, its CRM failing,
        // 3 failures this week, a call without an outcome, the recorder on
        yield* sql`INSERT INTO closers (closer_id, client_id, email, full_name, status, email_verified_at)
                   VALUES ('clo_busy', 'cli_busy', 'rep@busy.test', 'Rep', 'active', now())`
        yield* sql`INSERT INTO closer_integrations (closer_id, kind, client_id, status, sealed_access_token, token_last4, token_expires_at,
                                                    sealed_refresh_token, last_error, last_error_at)
                   VALUES ('clo_busy', 'calendar', 'cli_busy', 'error', 'x', 'abcd', NULL, 'y', 'invalid_grant', now()),
                          ('clo_busy', 'video', 'cli_busy', 'connected', 'x', 'abcd', now() + interval '2 days', NULL, NULL, NULL)`
        yield* sql`INSERT INTO crm_connections (client_id, provider, status, sealed_secrets, last_error)
                   VALUES ('cli_busy', 'crm-a', 'error', 'x', '401 Unauthorized')`
        yield* sql`INSERT INTO recorder_settings (client_id, active, join_mode) VALUES ('cli_busy', true, 'auto')`
        for (const i of [0, 1, 2]) {
          yield* insertCall({ id: `call_busy_fail${i}`, tenant: "cli_busy", status: "failed", age: DAY, errorCode: "decode_failed" })
        }
        yield* insertCall({ id: "call_busy_done", tenant: "cli_busy", status: "completed", age: 2 * DAY })
        // a charged call queued again for a re-analysis holds no credit: its one charge is already taken
        yield* insertCall({ id: "call_busy_again", tenant: "cli_busy", status: "queued", age: 3 * DAY })
        yield* sql`INSERT INTO credit_ledger (client_id, call_id, delta, reason)
                   VALUES ('cli_busy', NULL, 1, 'purchase'), ('cli_busy', 'call_busy_again', -1, 'analysis')`

        const ok = yield* get("/doctor?client_id=cli_ok")
        expect(ok.client_id).toBe("cli_ok")
        expect(ok.summary).toEqual({ tenants_checked: 1, ok: 1, warning: 0, critical: 0 })
        expect(ok.tenants[0]).toMatchObject({ client_id: "cli_ok", company_name: "Okay Co", plan: "growth", status: "ok" })
        expect(ok.tenants[0].checks.map((c: any) => [c.check, c.passed, c.fix_hint])).toEqual([
          ["no_verified_closer", true, null],
          ["credits_low", true, null],
          ["repeated_failures", true, null],
          ["integrations_failing", true, null],
          ["tokens_expiring", true, null],
          ["no_outcome_truth_30d", true, null],
          ["recorder_without_calendar", true, null],
          ["no_transcriber", true, null]
        ])

        const broke = (yield* get("/doctor?client_id=cli_broke")).tenants[0]
        expect(broke.status).toBe("critical")
        const brokeCheck = (name: string) => broke.checks.find((c: any) => c.check === name)
        expect(brokeCheck("no_verified_closer")).toEqual({
          check: "no_verified_closer",
          passed: false,
          severity: "warning",
          message: "No closer has been added",
          fix_hint: "Ask the tenant to add its sales reps: POST /v1/client-portal/closers",
          details: null
        })
        expect(brokeCheck("credits_low")).toMatchObject({
          passed: false,
          severity: "critical",
          message: "No credit is free: uploads through the API are refused (402)",
          details: { credits_free: 0 }
        })
        // no call in 30 days: nothing to record outcomes of
        expect(brokeCheck("no_outcome_truth_30d")).toMatchObject({ passed: true, message: "No call analysed in the last 30 days" })

        const busy = (yield* get("/doctor?client_id=cli_busy")).tenants[0]
        expect(busy.status).toBe("warning")
        const verdicts = Object.fromEntries(busy.checks.map((c: any) => [c.check, [c.passed, c.severity]]))
        expect(verdicts).toEqual({
          no_verified_closer: [true, "warning"],
          credits_low: [false, "warning"],
          repeated_failures: [false, "warning"],
          integrations_failing: [false, "warning"],
          tokens_expiring: [false, "warning"],
          no_outcome_truth_30d: [false, "warning"],
          recorder_without_calendar: [false, "warning"],
          no_transcriber: [false, "warning"]
        })
        const busyCheck = (name: string) => busy.checks.find((c: any) => c.check === name)
        expect(busyCheck("credits_low")).toMatchObject({ message: "Only 2 credits free for uploads", details: { credits_free: 2 } })
        expect(busyCheck("repeated_failures").message).toBe("3 analyses failed in the last 7 days")
        expect(busyCheck("integrations_failing").message).toBe(
          "2 integrations failing: calendar of rep@busy.test (invalid_grant); crm crm-a (401 Unauthorized)"
        )
        expect(busyCheck("tokens_expiring").message).toMatch(/^the video token of rep@busy\.test expires \d{4}-\d{2}-\d{2}T/)
        expect(busyCheck("no_outcome_truth_30d").message).toBe("1 calls analysed in the last 30 days and no outcome recorded")
        expect(busyCheck("recorder_without_calendar").message).toBe(
          "The recorder is on but no closer has a calendar connected: no meeting will be recorded"
        )
        for (const check of busy.checks.filter((c: any) => !c.passed)) expect(check.fix_hint, check.check).toEqual(expect.any(String))

        // all tenants, worst first
        const all = yield* get("/doctor")
        expect(all.summary.tenants_checked).toBe(6)
        expect(all.summary.ok + all.summary.warning + all.summary.critical).toBe(6)
        const order = { critical: 0, warning: 1, ok: 2 } as const
        const ranks = all.tenants.map((t: any) => order[t.status as keyof typeof order])
        expect(ranks).toEqual([...ranks].sort())
        expect((yield* call("GET", `${ADMIN}/doctor?client_id=cli_nobody`, { headers: admin })).status).toBe(404)
      }))
  })

  layer(testServerLayer({ workerLeaseSeconds: 8 }, { workers: true }), { excludeTestServices: true })("with a worker process", (it) => {
    it.effect("each worker process beats its heartbeat: alive within its lease, dead after it", () =>
      Effect.gen(function* () {
        const mine = (body: any) => body.workers.workers.find((w: any) => w.pid === process.pid && w.host === hostname())
        const first = yield* get("/status")
        expect(first.workers.alive).toBe(1)
        expect(mine(first)).toMatchObject({ concurrency: 2, alive: true, jobs_in_flight: 0 })
        expect(mine(first).worker_id).toMatch(new RegExp(`^${hostname()}:${process.pid}:wrk_`))
        // it beats every 2 s (a quarter of its lease)
        yield* Effect.sleep("2500 millis")
        const second = yield* get("/status")
        expect(Date.parse(mine(second).last_heartbeat_at)).toBeGreaterThan(Date.parse(mine(first).last_heartbeat_at))
        expect(mine(second).started_at).toBe(mine(first).started_at)

        // a process that stopped beating a minute ago is listed dead; one gone for two days is forgotten
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO worker_heartbeats (worker_id, host, pid, concurrency, lease_seconds, started_at, last_heartbeat_at)
                   VALUES ('other:1:wrk_dead', 'other', 1, 4, 8, now() - interval '1 hour', now() - interval '1 minute'),
                          ('other:2:wrk_gone', 'other', 2, 4, 8, now() - interval '3 days', now() - interval '2 days')`
        const third = yield* get("/status")
        expect(third.workers.alive).toBe(1)
        expect(third.workers.workers.map((w: any) => [w.worker_id === mine(third).worker_id ? "mine" : w.worker_id, w.alive])).toEqual([
          ["mine", true],
          ["other:1:wrk_dead", false]
        ])
        expect((yield* get("/pipeline-health")).operational.workers_alive).toBe(1)
      }))
  })
})
