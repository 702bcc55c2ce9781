/**
 * The account's read-only views: the cockpit, onboarding and activation, operational trust (the
 * tenant's analysis pipeline over 7 days) and integration health. One implementation, on the
 * shared floor: the portal answers them, the assistant interface serves the same views (spec 4.9),
 * market intelligence's radar reads the onboarding, and the admin's doctor uses the same thresholds.
 *
 * They answer from what the service has: the recording bot from its setting and its events; the
 * closers' calendar and video connections, crm-a and the LLM providers from their tables (a
 * connection whose tokens stopped working is an open alert); the coaching welcome from the
 * coaching feature's table (done when the first user of the tenant finished it); the
 * speech-to-text step from what decides the tenant's transcriber (`SpeechToText`).
 */
import type {
  AccountAlert,
  AccountCockpit,
  ClientId,
  HealthKpis,
  OnboardingActivation,
  OperationalTrust,
  Sees
} from "@callsight/api-spec"
import { AnalysisStatus } from "@callsight/api-spec"
import { Effect } from "effect"
import { byStatus } from "../lib/Counts.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { PlanUsage } from "../tenancy/PlanUsage.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { AccountQueries } from "./AccountQueries.js"
import { SpeechToText } from "./SpeechToText.js"

/** Credits free for new uploads below which the cockpit warns. */
export const LOW_CREDITS = 3
/** Failed analyses within 7 days from which the cockpit warns. */
export const REPEATED_FAILURES = 3

type CloserStatus = "pending_verification" | "active" | "paused" | "removed"

const STATUSES = AnalysisStatus.literals
const CLOSER_STATUSES: ReadonlyArray<CloserStatus> = ["pending_verification", "active", "paused", "removed"]

/** The protocol each integration speaks (the defaults of its configuration). */
const PROVIDER_OF: Record<string, string> = { calendar: "google-calendar", video: "zoom", "crm-a": "hubspot" }

const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10)

export class AccountViews extends Effect.Service<AccountViews>()("AccountViews", {
  effect: Effect.gen(function* () {
    const queries = yield* AccountQueries
    const tenants = yield* TenantsRepo
    const ledger = yield* LedgerRepo
    const planUsage = yield* PlanUsage
    const speechToText = yield* SpeechToText

    const alerts = (clientId: ClientId, sees: Sees) =>
      Effect.gen(function* () {
        const free = (yield* ledger.balance(clientId)) - (yield* ledger.reserved(clientId))
        const closers = yield* queries.closerSummary(clientId)
        const failures = yield* queries.recentFailures(clientId, sees)
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
        if (closers.verified === 0) {
          out.push({
            code: "no_verified_closer",
            severity: "warning",
            message: closers.total === 0 ? "No closer has been added yet." : "No closer has confirmed their e-mail yet.",
            fix_hint: closers.total === 0
              ? "Add your sales reps as closers: POST /v1/client-portal/closers."
              : "Ask your closers to click the link in their verification e-mail, or send it again.",
            since: closers.first
          })
        }
        for (const broken of yield* queries.brokenConnections(clientId)) {
          out.push({
            code: "integration_error",
            severity: "warning",
            message: `The ${broken.kind === "calendar" ? "calendar" : "video-meeting tool"} of ${broken.closer_email} stopped working` +
              (broken.last_error === null ? "." : `: ${broken.last_error}`),
            fix_hint: `Connect it again: POST /v1/client-portal/closers/{closer_id}/integrations/${broken.kind}/start.`,
            since: broken.since
          })
        }
        if (failures.n >= REPEATED_FAILURES) {
          out.push({
            code: "repeated_failures",
            severity: "warning",
            message: `${failures.n} analyses failed in the last 7 days.`,
            fix_hint: "See the failures and their reasons in operational-trust.",
            since: failures.first
          })
        }
        return out
      })

    /**
     * The account at a glance. For a rep (`sees` a closer) the calls counted, the average score, its
     * trend and the failures alert are their own calls'; plan, credits, closers and integrations are
     * the account's.
     */
    const cockpit = Effect.fn("AccountViews.cockpit")(function* (clientId: ClientId, sees: Sees) {
      // the session's tenant exists (deleting a tenant deletes its sessions)
      const usage = yield* Effect.catchTag(planUsage.usage(clientId), "NotFound", Effect.die)
      const tenant = yield* tenants.get(clientId)
      const monthCalls = yield* queries.callsByStatusSince(clientId, sees, usage.period_start)
      const closers = yield* queries.closersByStatus(clientId)
      const trend = yield* queries.scoreTrend(clientId, sees)
      const scored = trend.filter((w) => w.average_score !== null)
      const calls = scored.reduce((n, w) => n + w.calls, 0)
      const allowance = usage.ingests_included + usage.bonus_ingests
      return {
        client_id: clientId,
        company_name: tenant.company_name,
        plan: usage.plan,
        is_test: tenant.is_test,
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
        integrations: {
          ...(yield* queries.integrationSummary(clientId)),
          recorder_active: (yield* queries.recorderHealth(clientId)).active
        },
        open_alerts: yield* alerts(clientId, sees),
        generated_at: new Date().toISOString()
      } satisfies typeof AccountCockpit.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const onboarding = Effect.fn("AccountViews.onboarding")(function* (clientId: ClientId) {
      const doneAt = yield* queries.milestones(clientId)
      const recorder = yield* queries.recorderHealth(clientId)
      const speech = yield* speechToText.forTenant(clientId)
      const steps = [
        { key: "profile_saved", label: "Save your market or lead-context profile", at: doneAt.profile_saved },
        { key: "closer_added", label: "Add a closer", at: doneAt.closer_added },
        { key: "closer_verified", label: "Have a closer confirm their e-mail", at: doneAt.closer_verified },
        // done while the recording bot is active, since its activation
        { key: "recorder_connected", label: "Connect the call recorder", at: recorder.activated_at },
        // done while the tenant's calls get a transcript: since its integration (or flag) gives one, or always
        // (done_at null) when the service's own TRANSCRIBER does
        {
          key: "speech_to_text_connected",
          label: "Connect a speech-to-text provider",
          at: speech.since,
          done: speech.configured
        },
        { key: "first_call_analysed", label: "Analyse your first call", at: doneAt.first_call_analysed },
        { key: "first_outcome_recorded", label: "Record the outcome of a call", at: doneAt.first_outcome_recorded },
        // done when a user of the tenant first finished the coaching welcome
        { key: "coaching_welcome_done", label: "Finish the coaching welcome", at: doneAt.coaching_welcome_done }
      ] as const
      const isDone = (s: (typeof steps)[number]) => ("done" in s ? s.done : s.at !== null)
      const done = steps.filter(isDone).length
      return {
        client_id: clientId,
        steps: steps.map((s) => ({ key: s.key, label: s.label, done: isDone(s), done_at: s.at })),
        steps_done: done,
        steps_total: steps.length,
        activation_pct: Math.round((100 * done) / steps.length),
        next_step: steps.find((s) => !isDone(s))?.key ?? null,
        generated_at: new Date().toISOString()
      } satisfies typeof OnboardingActivation.Type
    }, Effect.orDie)

    const operationalTrust = Effect.fn("AccountViews.operationalTrust")(function* (clientId: ClientId) {
      const counts = yield* queries.lastWeekByStatus(clientId)
      const times = yield* queries.processingTimes(clientId)
      const failures = yield* queries.latestFailures(clientId)
      const lastCompleted = yield* queries.lastCompleted(clientId)
      const analyses = byStatus(STATUSES, counts)
      const finished = analyses.completed + analyses.failed
      return {
        client_id: clientId,
        window_days: 7,
        since: times.since,
        analyses_by_status: analyses,
        analyses_total: STATUSES.reduce((n, s) => n + analyses[s], 0),
        success_rate: finished === 0 ? null : Math.round((1000 * analyses.completed) / finished) / 1000,
        processing_time_s: { median: round1(times.median), p95: round1(times.p95), sample: times.sample },
        recent_failures: failures,
        last_completed_at: lastCompleted,
        generated_at: new Date().toISOString()
      } satisfies typeof OperationalTrust.Type
    }, Effect.orDie)

    const healthKpis = Effect.fn("AccountViews.healthKpis")(function* (clientId: ClientId) {
      const api = yield* queries.apiHealth(clientId)
      const recorder = yield* queries.recorderHealth(clientId)
      const rate = (events: number, errors: number) => (events === 0 ? null : Math.round((1000 * errors) / events) / 1000)
      const llm = (yield* queries.integrationSummary(clientId)).llm
      return {
        integrations: [
          {
            integration: "api",
            provider: "callsight",
            connected: api.keys > 0,
            last_success_at: api.last_success_at,
            last_error_at: api.last_error_at,
            last_error: api.last_error,
            events_7d: api.events_7d,
            error_rate_7d: api.events_7d === 0 ? null : Math.round((1000 * api.errors_7d) / api.events_7d) / 1000,
            token_expires_at: null
          },
          {
            integration: "recorder",
            provider: recorder.active ? "recall" : null,
            connected: recorder.active,
            last_success_at: recorder.last_success_at,
            last_error_at: recorder.last_error_at,
            last_error: recorder.last_error,
            events_7d: recorder.events_7d,
            error_rate_7d: rate(recorder.events_7d, recorder.errors_7d),
            token_expires_at: null
          },
          ...(yield* queries.connectionHealth(clientId)).map((c) => ({
            integration: c.integration,
            provider: c.connected + c.in_error === 0
              ? null
              : c.integration === "llm" ? llm.join(", ") : PROVIDER_OF[c.integration] ?? null,
            connected: c.connected > 0,
            last_success_at: c.last_success_at,
            last_error_at: c.last_error_at,
            last_error: c.last_error,
            events_7d: c.events_7d,
            error_rate_7d: rate(c.events_7d, c.errors_7d),
            token_expires_at: c.token_expires_at
          }))
        ],
        generated_at: new Date().toISOString()
      } satisfies typeof HealthKpis.Type
    }, Effect.orDie)

    return { cockpit, onboarding, operationalTrust, healthKpis, alerts } as const
  }),
  dependencies: [AccountQueries.Default, TenantsRepo.Default, LedgerRepo.Default, PlanUsage.Default, SpeechToText.Default]
}) {}
