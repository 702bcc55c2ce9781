/**
 * Audio analysis for agents, in-process: upload (202, validation, 413, 415, 402, idempotency),
 * status, report and the calls list, tenant isolation; then, with the workers running, calls
 * that complete with exactly one credit, calls that fail with none, and 20 uploads at once.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { balanceOf, createTenant, get, settle, upload } from "./utils/AudioRequests.js"
import { fixture, truth, wavOf, wavSamples } from "../../../test/utils/Fixtures.js"
import { testServerLayer } from "./utils/TestServer.js"

/**
 * About the first `seconds` of a fixture: an MP3 cut after its share of the bytes, a
 * 16-bit WAV with a canonical 44-byte header cut after as many samples, its sizes rewritten.
 */
const fixtureHead = (name: string, seconds: number): Uint8Array => {
  const bytes = fixture(name)
  if (name.endsWith(".mp3")) return bytes.subarray(0, Math.round((bytes.length * seconds) / truth(name.replace(/\.mp3$/, "")).duration))
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  expect(new TextDecoder().decode(bytes.subarray(36, 40))).toBe("data")
  const dataLength = Math.min(view.getUint32(40, true), view.getUint32(28, true) * seconds)
  const head = bytes.slice(0, 44 + dataLength)
  const headView = new DataView(head.buffer)
  headView.setUint32(4, 36 + dataLength, true)
  headView.setUint32(40, dataLength, true)
  return head
}

describe("audio analysis", () => {
  // Without workers: calls stay queued, so what is answered before an analysis can be checked.
  it.layer(testServerLayer({ maxUploadMb: 1 }, { workers: false }))("uploads and reads", (it) => {
    it.effect("an upload is answered 202 with the call id before any analysis, and stays queued", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        const { status, body } = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), {
          externalCallId: "crm-42",
          closerEmail: "rep@acme.test"
        })
        expect(status).toBe(202)
        expect(body.call_id).toMatch(/^call_[0-9a-f]{20}$/)
        expect(body).toMatchObject({ status: "queued", external_call_id: "crm-42" })
        expect(body.status_url).toBe(`http://localhost:8080/analysis/${body.call_id}`)
        expect(body.report_url).toBe(`http://localhost:8080/reports/${body.call_id}/html`)
        expect(Date.now() - Date.parse(body.created_at)).toBeLessThan(60_000)

        const state = yield* get(tenant.api_key, `/analysis/${body.call_id}`)
        expect(state.status).toBe(200)
        expect(state.body).toMatchObject({
          call_id: body.call_id,
          external_call_id: "crm-42",
          status: "queued",
          stage: "queued",
          progress: 0,
          started_at: null,
          completed_at: null,
          credits_charged: 0,
          error: null,
          summary: null
        })
        const report = yield* get(tenant.api_key, `/reports/${body.call_id}/html`)
        expect(report.status).toBe(409)
        expect(report.body).toMatchObject({ _tag: "Conflict" })
        expect(report.body.message).toMatch(/queued/)
        // the upload is an event of the tenant
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql`SELECT type, status, closer_email FROM call_events WHERE call_id = ${body.call_id}`
        expect(events).toEqual([{ type: "upload_accepted", status: "ok", closer_email: "rep@acme.test" }])
      }))

    it.effect("the /reporting prefix accepts the upload too", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(2)
        const client = yield* HttpClient.HttpClient
        const form = new FormData()
        form.append("audio", new Blob([fixture("renewal-stereo.mp3")]), "r.mp3")
        const response = yield* client.execute(
          HttpClientRequest.post("/reporting/v1/teams/audio").pipe(
            HttpClientRequest.setHeader("x-api-key", tenant.api_key),
            HttpClientRequest.bodyFormData(form)
          )
        )
        expect(response.status).toBe(202)
      }))

    it.effect("bad files: not audio 415, empty 422, no audio part 422, too long an external id 422, bad e-mail 422", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        const text = new TextEncoder().encode("this is not audio, just a text file renamed to .mp3\n".repeat(20))
        const notAudio = yield* upload(tenant.api_key, text, { name: "fake.mp3" })
        expect(notAudio.status).toBe(415)
        expect(notAudio.body._tag).toBe("UnsupportedMediaType")
        const empty = yield* upload(tenant.api_key, new Uint8Array(0), { name: "empty.mp3" })
        expect(empty.status).toBe(422)
        expect(empty.body.detail[0]).toMatchObject({ loc: ["body", "audio"] })
        const noAudio = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { field: "file" })
        expect(noAudio.status).toBe(422)
        expect(noAudio.body.detail[0]).toMatchObject({ loc: ["body", "audio"], type: "missing" })
        const longId = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { externalCallId: "x".repeat(201) })
        expect(longId.status).toBe(422)
        expect(longId.body.detail[0].loc).toEqual(["body", "external_call_id"])
        const badEmail = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { closerEmail: "not-an-email" })
        expect(badEmail.status).toBe(422)
        // none of them made a call
        const list = yield* get(tenant.api_key, "/v1/teams/calls")
        expect(list.body.calls).toEqual([])
      }))

    it.effect("a file over MAX_UPLOAD_MB is 413 and leaves nothing behind", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        const big = fixture("discovery-short.wav") // 2.4 MB, the limit here is 1 MB
        const { status, body } = yield* upload(tenant.api_key, big)
        expect(status).toBe(413)
        expect(body._tag).toBe("PayloadTooLarge")
        const list = yield* get(tenant.api_key, "/v1/teams/calls")
        expect(list.body.calls).toEqual([])
      }))

    it.effect("without a free credit the upload is 402; a queued call holds its credit", () =>
      Effect.gen(function* () {
        const none = yield* createTenant(0)
        const refused = yield* upload(none.api_key, fixture("demo-objection.mp3"))
        expect(refused.status).toBe(402)
        expect(refused.body._tag).toBe("PaymentRequired")
        const one = yield* createTenant(1)
        expect((yield* upload(one.api_key, fixture("demo-objection.mp3"))).status).toBe(202)
        expect((yield* upload(one.api_key, fixture("renewal-stereo.mp3"))).status).toBe(402)
      }))

    it.effect("the plan's monthly ingests are a limit too (402)", () =>
      Effect.gen(function* () {
        const trial = yield* createTenant(50, "trial") // 10 calls a month
        for (let i = 0; i < 10; i++) {
          expect((yield* upload(trial.api_key, fixture("renewal-stereo.mp3"))).status).toBe(202)
        }
        const over = yield* upload(trial.api_key, fixture("renewal-stereo.mp3"))
        expect(over.status).toBe(402)
        expect(over.body.message).toMatch(/10 calls/)
      }))

    it.effect("the same Idempotency-Key and request answer the same body and make no new call; another file or other fields are 409", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        const first = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { idempotencyKey: "k-1", externalCallId: "e1" })
        const again = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { idempotencyKey: "k-1", externalCallId: "e1" })
        expect(first.status).toBe(202)
        expect(again.status).toBe(202)
        expect(again.body).toEqual(first.body)
        const other = yield* upload(tenant.api_key, fixture("renewal-stereo.mp3"), { idempotencyKey: "k-1" })
        expect(other.status).toBe(409)
        expect(other.body._tag).toBe("Conflict")
        expect(other.body.message).toContain("another file")
        // the same file with other fields is another request too
        const renamed = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { idempotencyKey: "k-1", externalCallId: "e2" })
        expect(renamed.status).toBe(409)
        expect(renamed.body.message).toContain("another external_call_id")
        const reassigned = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { idempotencyKey: "k-1", externalCallId: "e1", closerEmail: "x@acme.test" })
        expect(reassigned.status).toBe(409)
        expect(reassigned.body.message).toContain("another closer_email")
        const list = yield* get(tenant.api_key, "/v1/teams/calls")
        expect(list.body.calls.map((c: any) => c.call_id)).toEqual([first.body.call_id])
        // the key is the tenant's own: another tenant may use the same key
        const otherTenant = yield* createTenant(5)
        const theirs = yield* upload(otherTenant.api_key, fixture("renewal-stereo.mp3"), { idempotencyKey: "k-1" })
        expect(theirs.status).toBe(202)
        expect(theirs.body.call_id).not.toBe(first.body.call_id)
      }))

    it.effect("another tenant's call is 404 on status, report and JSON, and absent from its list", () =>
      Effect.gen(function* () {
        const owner = yield* createTenant(5)
        const stranger = yield* createTenant(5)
        const { body } = yield* upload(owner.api_key, fixture("demo-objection.mp3"))
        for (const path of [`/analysis/${body.call_id}`, `/reports/${body.call_id}/html`, `/v1/teams/calls/${body.call_id}`]) {
          const answer = yield* get(stranger.api_key, path)
          expect(answer.status, path).toBe(404)
          expect(answer.body._tag).toBe("NotFound")
          const missing = yield* get(stranger.api_key, path.replace(body.call_id, "call_00000000000000000000"))
          expect(missing.body, "the same answer as a call that does not exist").toEqual({
            ...answer.body,
            message: answer.body.message.replace(body.call_id, "call_00000000000000000000")
          })
        }
        expect((yield* get(stranger.api_key, "/v1/teams/calls")).body.calls).toEqual([])
        expect((yield* get(owner.api_key, `/v1/teams/calls/${body.call_id}`)).status).toBe(200)
      }))

    it.effect("the calls list is newest first and pages with its cursor", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(10)
        const ids: Array<string> = []
        for (let i = 0; i < 5; i++) ids.push((yield* upload(tenant.api_key, fixture("renewal-stereo.mp3"))).body.call_id)
        const first = yield* get(tenant.api_key, "/v1/teams/calls?limit=2")
        expect(first.body.calls.map((c: any) => c.call_id)).toEqual([ids[4], ids[3]])
        const second = yield* get(tenant.api_key, `/v1/teams/calls?limit=2&cursor=${first.body.next_cursor}`)
        expect(second.body.calls.map((c: any) => c.call_id)).toEqual([ids[2], ids[1]])
        const third = yield* get(tenant.api_key, `/v1/teams/calls?limit=2&cursor=${second.body.next_cursor}`)
        expect(third.body.calls.map((c: any) => c.call_id)).toEqual([ids[0]])
        expect(third.body.next_cursor).toBeNull()
        expect((yield* get(tenant.api_key, "/v1/teams/calls?limit=0")).status).toBe(422)
        expect((yield* get(tenant.api_key, "/v1/teams/calls?cursor=garbage")).status).toBe(422)
      }))
  })

  // With the workers: analyses run to their end.
  // No test services: the workers poll and renew their leases on the real clock.
  layer(testServerLayer({ workerConcurrency: 2 }, { workers: true }), { excludeTestServices: true })("analyses", (it) => {
    it.effect("a WAV call completes: one credit, a report, the whole analysis as JSON", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        const { body } = yield* upload(tenant.api_key, fixture("discovery-short.wav"), { externalCallId: "<b>ext</b>" })
        const done = yield* settle(tenant.api_key, body.call_id)
        expect(done.status).toBe("completed")
        expect(done).toMatchObject({ stage: "done", progress: 1, credits_charged: 1, error: null })
        expect(done.duration_s).toBeCloseTo(truth("discovery-short").duration, 0)
        expect(done.summary.speakers).toBe(2)
        expect(done.summary.transcript_available).toBe(false)
        expect(done.summary.talk_ratio).toBeGreaterThan(0)
        // acoustic-only: the overall rests on 2 of the 6 dimensions, a partial score
        expect(done.summary.overall_basis).toEqual({ assessed: 2, of: 6, partial: true })
        expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(Date.parse(done.started_at))
        expect(yield* balanceOf(tenant.client_id)).toBe(2)

        const report = yield* get(tenant.api_key, `/reports/${body.call_id}/html`)
        expect(report.status).toBe(200)
        expect(report.headers["content-type"]).toContain("text/html")
        expect(report.body).toContain(body.call_id)
        expect(report.body).toContain("<svg")
        expect(report.body).not.toContain("<b>ext</b>")
        expect(report.body).toContain("Partial (2 of 6)")
        // downloads and status checks cost nothing
        yield* get(tenant.api_key, `/reports/${body.call_id}/html`)
        yield* get(tenant.api_key, `/analysis/${body.call_id}`)
        expect(yield* balanceOf(tenant.client_id)).toBe(2)

        const call = (yield* get(tenant.api_key, `/v1/teams/calls/${body.call_id}`)).body
        expect(call.status).toBe("completed")
        expect(call.speaker_turns.length).toBeGreaterThan(3)
        expect(call.speaker_turns[0]).toEqual({
          speaker: expect.any(String),
          role: expect.stringMatching(/^(rep|buyer|unknown)$/),
          start: expect.any(Number),
          end: expect.any(Number)
        })
        expect(call.metrics.talk_ratio).toBe(done.summary.talk_ratio)
        expect(call.scorecard.dimensions).toHaveLength(6)
        expect(call.scorecard.overall_basis).toEqual({ assessed: 2, of: 6, partial: true })
        expect(call.llm).toBeNull()
        expect(call.method_version).toEqual(expect.any(String))
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ type: string }>`SELECT type FROM call_events WHERE call_id = ${body.call_id} ORDER BY received_at`
        expect(events.map((e) => e.type)).toEqual(["upload_accepted", "analysis_completed"])
      }))

    it.effect("a call of 1 s fails with too_short and costs nothing; so does an MP3 cut after its first second", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        const oneSecond = wavOf(wavSamples("discovery-short.wav").subarray(16_000, 32_000))
        const short = yield* upload(tenant.api_key, oneSecond, { name: "short.wav" })
        expect(short.status).toBe(202)
        const failed = yield* settle(tenant.api_key, short.body.call_id)
        expect(failed).toMatchObject({ status: "failed", credits_charged: 0, summary: null })
        expect(failed.error.code).toBe("too_short")
        expect((yield* get(tenant.api_key, `/reports/${short.body.call_id}/html`)).status).toBe(409)
        expect(yield* balanceOf(tenant.client_id)).toBe(3)
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ type: string; error: string }>`
          SELECT type, error FROM call_events WHERE call_id = ${short.body.call_id} AND type = 'analysis_failed'`
        expect(events).toHaveLength(1)
        expect(events[0].error).toMatch(/too_short/)

        // 48 kbit/s: 6 kB is about one second of audio
        const truncated = yield* upload(tenant.api_key, fixture("discovery-short.mp3").subarray(0, 6_000), { name: "cut.mp3" })
        expect(truncated.status).toBe(202)
        const cut = yield* settle(tenant.api_key, truncated.body.call_id)
        expect(cut).toMatchObject({ status: "failed", credits_charged: 0 })
        expect(cut.error.code).toBe("too_short")
        expect(yield* balanceOf(tenant.client_id)).toBe(3)
      }))

    it.effect("20 uploads at once: 20 completed, 20 credits, no job run twice", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(25)
        // the first 15 s of each fixture (MP3, stereo WAV): what is checked is how 20 jobs are
        // claimed, run and charged, which whole calls (26 minutes of audio in all) only make slower
        const files = ["renewal-stereo.mp3", "demo-objection.mp3", "renewal-stereo.wav", "discovery-short.mp3"]
        const heads = new Map(files.map((name) => [name, fixtureHead(name, 15)]))
        const uploads = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => files[i % files.length]!),
          (name) => upload(tenant.api_key, heads.get(name)!, { name }),
          { concurrency: "unbounded" }
        )
        expect(uploads.map((u) => u.status)).toEqual(Array(20).fill(202))
        const ids = uploads.map((u) => u.body.call_id as string)
        expect(new Set(ids).size).toBe(20)
        const settled = yield* Effect.forEach(ids, (id) => settle(tenant.api_key, id), { concurrency: 4 })
        expect(settled.map((s) => s.status)).toEqual(Array(20).fill("completed"))
        expect(yield* balanceOf(tenant.client_id)).toBe(5)
        const sql = yield* SqlClient.SqlClient
        const charges = yield* sql<{ n: number }>`
          SELECT count(*)::int AS n FROM credit_ledger WHERE client_id = ${tenant.client_id} AND reason = 'analysis'`
        expect(charges[0].n).toBe(20)
        const attempts = yield* sql<{ attempts: number; state: string }>`
          SELECT attempts, state FROM analysis_jobs j JOIN calls c USING (call_id) WHERE c.client_id = ${tenant.client_id}`
        expect(attempts).toHaveLength(20)
        expect(attempts.every((a) => a.attempts === 1 && a.state === "done")).toBe(true)
      }), 180_000)
  })
})
