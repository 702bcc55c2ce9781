/**
 * Without a speech-to-text provider the service says what is missing, not only that the score is
 * partial: the upload's 202 and the status carry a `no_transcriber` notice (decided from the
 * tenant's configuration before the analysis, from the analysis once completed), the report says
 * which dimensions it could not judge and how to configure a provider, the doctor flags the tenant
 * and the service, and onboarding shows the step "Connect a speech-to-text provider". With one (the
 * tenant's `transcriber` flag, its own integration saved in the portal, the server's TRANSCRIBER;
 * a local server speaking Deepgram's protocol transcribes) none of it.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { admin, createTenant, get, setFlags, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, tenantWithOwner } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { type SpeechProviderServer, startDeepgram } from "./utils/SpeechProviders.js"
import { testServerLayer } from "./utils/TestServer.js"

const SERVER_KEY = "dg-server-key"
const TENANT_KEY = "dg-tenant-key-0000000000000000dgdg"
const CONTENT = ["discovery", "objection_handling", "value", "next_steps"]

/** The notice of a tenant without a provider, decided from `decided_from`. */
const noTranscriber = (decidedFrom: "configuration" | "analysis") => ({
  code: "no_transcriber",
  message: expect.stringContaining("Discovery, Objection handling, Value and Next steps"),
  how: expect.stringContaining("PUT /v1/client-portal/integrations/llm"),
  dimensions: CONTENT,
  decided_from: decidedFrom
})

const doctorOf = (clientId: string) =>
  Effect.map(call("GET", `/v1/internal/admin/doctor?client_id=${clientId}`, { headers: admin }), (r) => {
    expect(r.status).toBe(200)
    return r.body
  })

const onboardingOf = (clientId: string) =>
  Effect.map(call("GET", `/v1/internal/assistant/onboarding-status?client_id=${clientId}`, { headers: admin }), (r) => {
    expect(r.status).toBe(200)
    return r.body
  })

const speechStep = (onboarding: any) => onboarding.steps.find((s: any) => s.key === "speech_to_text_connected")

describe("no speech-to-text provider", () => {
  // No workers: calls stay queued, so what is said before an analysis can be read. The server has a
  // Deepgram key (never called here), so a tenant's flag can name Deepgram; TRANSCRIBER stays none.
  layer(testServerLayer({ deepgramApiKey: Option.some(Redacted.make(SERVER_KEY)) }, { workers: false }), { excludeTestServices: true })(
    "before the analysis",
    (it) => {
      it.effect("the 202 and the queued status carry the notice, with how to configure a provider; a replay too", () =>
        Effect.gen(function* () {
          const tenant = yield* createTenant(3)
          const accepted = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { idempotencyKey: "k-1" })
          expect(accepted.status).toBe(202)
          expect(accepted.body.notices).toEqual([noTranscriber("configuration")])
          const [notice] = accepted.body.notices
          expect(notice.message).toMatch(/^No speech-to-text provider is configured for this tenant: the call will be analysed from its audio alone\./)
          expect(notice.how).toContain("TRANSCRIBER (deepgram, assemblyai or openai)")
          expect(notice.how).toContain("DEEPGRAM_API_KEY, ASSEMBLYAI_API_KEY or OPENAI_API_KEY")
          // names the settings, never a key nor an address of the service
          expect(notice.how).not.toContain(SERVER_KEY)
          expect(notice.how).not.toMatch(/https?:\/\//)

          const status = yield* get(tenant.api_key, `/analysis/${accepted.body.call_id}`)
          expect(status.body).toMatchObject({ status: "queued", summary: null })
          expect(status.body.notices).toEqual([notice])

          const replay = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { idempotencyKey: "k-1" })
          expect(replay.body).toEqual(accepted.body)
        }))

      it.effect("a tenant whose flag names a provider gets no notice; a flag of none says so in the how", () =>
        Effect.gen(function* () {
          const transcribed = yield* createTenant(3)
          yield* setFlags(transcribed.client_id, { transcriber: "deepgram" })
          const accepted = yield* upload(transcribed.api_key, fixture("demo-objection.mp3"))
          expect(accepted.status).toBe(202)
          expect(accepted.body).not.toHaveProperty("notices")
          const status = yield* get(transcribed.api_key, `/analysis/${accepted.body.call_id}`)
          expect(status.body.status).toBe("queued")
          expect(status.body).not.toHaveProperty("notices")

          const off = yield* createTenant(3)
          yield* setFlags(off.client_id, { transcriber: "none" })
          const refused = yield* upload(off.api_key, fixture("demo-objection.mp3"))
          expect(refused.body.notices).toEqual([noTranscriber("configuration")])
          expect(refused.body.notices[0].how).toMatch(/^This tenant's transcriber runtime flag is none, which wins over the service's TRANSCRIBER/)
          expect(refused.body.notices[0].how).toContain(`PUT /v1/internal/admin/settings/runtime-flags/${off.client_id}`)
        }))

      it.effect("the doctor warns of a tenant without a provider and of TRANSCRIBER=none, each with its fix", () =>
        Effect.gen(function* () {
          const without = yield* createTenant(3)
          const flagged = yield* createTenant(3)
          yield* setFlags(flagged.client_id, { transcriber: "deepgram" })
          const keyless = yield* createTenant(3)
          yield* setFlags(keyless.client_id, { transcriber: "assemblyai" })

          const report = yield* doctorOf(without.client_id)
          const check = report.tenants[0].checks.find((c: any) => c.check === "no_transcriber")
          expect(check).toMatchObject({
            passed: false,
            severity: "warning",
            details: { decided_by: "server", provider: "none" }
          })
          expect(check.message).toMatch(/^No speech-to-text provider: no speech-to-text integration of the tenant and the service's TRANSCRIBER is none/)
          expect(check.fix_hint).toContain("PUT /v1/client-portal/integrations/llm")
          expect(check.fix_hint).toContain("set TRANSCRIBER (deepgram, assemblyai or openai)")
          expect(report.tenants[0].status).not.toBe("ok")
          expect(report.service_checks).toEqual([{
            check: "no_transcriber",
            passed: false,
            severity: "warning",
            message: expect.stringMatching(/^TRANSCRIBER is none: .* \(1 of the 1 tenant checked have no provider\)$/),
            fix_hint: expect.stringContaining("DEEPGRAM_API_KEY"),
            details: { transcriber: "none", tenants_without: 1, tenants_checked: 1 }
          }])

          const ok = (yield* doctorOf(flagged.client_id)).tenants[0].checks.find((c: any) => c.check === "no_transcriber")
          expect(ok).toMatchObject({
            passed: true,
            fix_hint: null,
            message: "Calls are transcribed by the tenant's transcriber runtime flag (deepgram)"
          })

          // a flag naming a provider the server has no key for: its calls fail, which is worse
          const broken = (yield* doctorOf(keyless.client_id)).tenants[0]
          expect(broken.status).toBe("critical")
          expect(broken.checks.find((c: any) => c.check === "no_transcriber")).toMatchObject({
            passed: false,
            severity: "critical",
            message: "The tenant's transcriber runtime flag names assemblyai but the service has no ASSEMBLYAI_API_KEY: its calls fail (transcription_failed)"
          })

          // every tenant: the service's check counts those without one
          const all = yield* call("GET", "/v1/internal/admin/doctor", { headers: admin })
          const counted = all.body.service_checks[0].details
          const withoutAny = all.body.tenants.filter((t: any) =>
            t.checks.some((c: any) => c.check === "no_transcriber" && !c.passed && c.severity === "warning")
          ).length
          expect(counted).toEqual({ transcriber: "none", tenants_without: withoutAny, tenants_checked: all.body.tenants.length })
          expect(withoutAny).toBeGreaterThanOrEqual(2)
        }))

      it.effect("onboarding: the step is not done without a provider, done since the flag named one", () =>
        Effect.gen(function* () {
          const tenant = yield* createTenant(3)
          const before = yield* onboardingOf(tenant.client_id)
          expect(before.steps.map((s: any) => s.key)).toContain("speech_to_text_connected")
          expect(speechStep(before)).toEqual({
            key: "speech_to_text_connected",
            label: "Connect a speech-to-text provider",
            done: false,
            done_at: null
          })
          expect(before.steps_total).toBe(8)

          yield* setFlags(tenant.client_id, { transcriber: "deepgram" })
          const sql = yield* SqlClient.SqlClient
          const [flags] = yield* sql<{ updated_at: Date }>`SELECT updated_at FROM tenant_runtime_flags WHERE client_id = ${tenant.client_id}`
          const after = yield* onboardingOf(tenant.client_id)
          expect(speechStep(after)).toMatchObject({ done: true, done_at: flags!.updated_at.toISOString() })
          expect(after.steps_done).toBe(before.steps_done + 1)
        }))
    }
  )

  // The server's own provider (TRANSCRIBER=deepgram): nothing to say, and the step is done from the start.
  layer(
    testServerLayer({ transcriber: "deepgram", deepgramApiKey: Option.some(Redacted.make(SERVER_KEY)) }, { workers: false }),
    { excludeTestServices: true }
  )("with the server's TRANSCRIBER", (it) => {
    it.effect("no notice, the doctor's checks pass, the onboarding step is done (done_at null: the service's own)", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        const accepted = yield* upload(tenant.api_key, fixture("demo-objection.mp3"))
        expect(accepted.status).toBe(202)
        expect(accepted.body).not.toHaveProperty("notices")
        const report = yield* doctorOf(tenant.client_id)
        expect(report.service_checks).toEqual([expect.objectContaining({ check: "no_transcriber", passed: true, fix_hint: null })])
        expect(report.tenants[0].checks.find((c: any) => c.check === "no_transcriber")).toMatchObject({
          passed: true,
          message: "Calls are transcribed by the service's TRANSCRIBER (deepgram)"
        })
        expect(speechStep(yield* onboardingOf(tenant.client_id))).toMatchObject({ done: true, done_at: null })
      }))
  })
})

class Providers extends Context.Tag("test/NoTranscriberProviders")<Providers, { readonly tenantDeepgram: SpeechProviderServer }>() {}

/** Workers, TRANSCRIBER=none, SMTP for the portal's sign-in, and a Deepgram of the tenant's own. */
const withWorkers = Layer.unwrapScoped(Effect.gen(function* () {
  const tenantDeepgram = yield* startDeepgram({ apiKey: TENANT_KEY })
  return Layer.merge(serverWithSmtp({ workerConcurrency: 2 }, { workers: true }), Layer.succeed(Providers, { tenantDeepgram }))
}))

describe("no speech-to-text provider, analysed", () => {
  layer(withWorkers, { excludeTestServices: true })("with the workers", (it) => {
    it.effect("the completed status and the report say what the analysis missed; a provider saved after changes the how, not the past", () =>
      Effect.gen(function* () {
        const { tenantDeepgram } = yield* Providers
        const tenant = yield* tenantWithOwner
        const accepted = yield* upload(tenant.apiKey, fixture("discovery-short.mp3"))
        expect(accepted.body.notices).toEqual([noTranscriber("configuration")])
        const callId = accepted.body.call_id
        const done = yield* settle(tenant.apiKey, callId)
        expect(done).toMatchObject({ status: "completed", summary: { transcript_available: false } })
        expect(done.notices).toEqual([noTranscriber("analysis")])
        expect(done.notices[0].message).toMatch(/^This call was analysed without a speech-to-text provider: Discovery, Objection handling, Value and Next steps were not assessed/)

        // the report, near the scorecard: what it could not judge, and how to configure a provider
        const report = yield* get(tenant.apiKey, `/reports/${callId}/html`)
        expect(report.status).toBe(200)
        const html: string = report.body
        const at = html.indexOf(`id="no-transcript"`)
        expect(at).toBeGreaterThan(0)
        expect(at).toBeLessThan(html.indexOf(`id="scorecard"`))
        const notice = html.slice(at, html.indexOf("</section>", at))
        expect(notice).toContain("<b>Discovery, Objection handling, Value and Next steps</b> could not be judged")
        expect(notice).toContain("PUT /v1/client-portal/integrations/llm")
        expect(notice).toContain("set TRANSCRIBER (deepgram, assemblyai or openai)")
        expect(speechStep(yield* onboardingOf(tenant.clientId))).toMatchObject({ done: false })

        // the owner saves a Deepgram key: the call keeps what its analysis ran with, and says how to get its transcript
        const saved = yield* call("PUT", "/v1/client-portal/integrations/llm", {
          session: tenant.session,
          body: { provider: "deepgram", api_key: TENANT_KEY, base_url: tenantDeepgram.url }
        })
        expect(saved.status).toBe(200)
        const later = (yield* get(tenant.apiKey, `/analysis/${callId}`)).body
        expect(later.notices).toEqual([{ ...noTranscriber("analysis"), how: expect.any(String) }])
        expect(later.notices[0].how).toBe(
          "A speech-to-text provider is configured now (the tenant's deepgram speech-to-text integration); this call was analysed " +
            "before it: analyse it again (the workspace's reanalyze_call action) or upload the file again."
        )
        const reportAfter: string = (yield* get(tenant.apiKey, `/reports/${callId}/html`)).body
        expect(reportAfter).toContain("A speech-to-text provider is configured now")
        expect(speechStep(yield* onboardingOf(tenant.clientId))).toMatchObject({ done: true, done_at: saved.body.created_at })

        // a new call: no notice, a transcript, no notice in its report
        const next = yield* upload(tenant.apiKey, fixture("discovery-short.mp3"))
        expect(next.status).toBe(202)
        expect(next.body).not.toHaveProperty("notices")
        const transcribed = yield* settle(tenant.apiKey, next.body.call_id)
        expect(transcribed).toMatchObject({ status: "completed", summary: { transcript_available: true } })
        expect(transcribed).not.toHaveProperty("notices")
        const nextReport: string = (yield* get(tenant.apiKey, `/reports/${next.body.call_id}/html`)).body
        expect(nextReport).not.toContain(`id="no-transcript"`)
        expect(tenantDeepgram.requests.length).toBeGreaterThan(0)
      }))
  })
})
