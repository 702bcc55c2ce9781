/**
 * Transcripts end to end, in-process: the workers transcribe each upload with the tenant's
 * speech-to-text provider (local servers speaking Deepgram's, AssemblyAI's and OpenAI's protocols,
 * answering with the words of the fixture they receive) while they decode it, and the call's JSON,
 * its status and its report carry what the content analysis found. Then the failures: a refused
 * key, a provider that fails once and then answers, and one that never answers.
 */
import { METHOD_VERSION } from "@callsight/analysis"
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { AppConfigShape } from "../src/config.js"
import { balanceOf, setFlags, createTenant, get, settle, upload } from "./utils/AudioRequests.js"
import { fixture, truth } from "../../../test/utils/Fixtures.js"
import {
  type AssemblyAIServerOptions,
  type ProviderServerOptions,
  sha256,
  type SpeechProviderServer,
  startAssemblyAI,
  startDeepgram,
  startOpenAI
} from "./utils/SpeechProviders.js"
import { testServerLayer } from "./utils/TestServer.js"

const KEYS = { deepgram: "dg-test-key", assemblyai: "aai-test-key", openai: "sk-test-key" } as const

class Providers extends Context.Tag("test/Providers")<Providers, {
  readonly deepgram: SpeechProviderServer
  readonly assemblyai: SpeechProviderServer
  readonly openai: SpeechProviderServer
}>() {}

/** The server with its workers, Deepgram as the server's TRANSCRIBER, the three providers local. */
const withProviders = (faults: {
  readonly deepgram?: ProviderServerOptions
  readonly assemblyai?: AssemblyAIServerOptions
  readonly openai?: ProviderServerOptions
  readonly config?: Partial<AppConfigShape>
} = {}) =>
  Layer.unwrapScoped(Effect.gen(function* () {
    const deepgram = yield* startDeepgram({ apiKey: KEYS.deepgram, ...faults.deepgram })
    const assemblyai = yield* startAssemblyAI({ apiKey: KEYS.assemblyai, pendingPolls: 1, ...faults.assemblyai })
    const openai = yield* startOpenAI({ apiKey: KEYS.openai, ...faults.openai })
    const server = testServerLayer({
      workerConcurrency: 2,
      transcriber: "deepgram",
      deepgramApiKey: Option.some(Redacted.make(KEYS.deepgram)),
      deepgramBaseUrl: deepgram.url,
      assemblyaiApiKey: Option.some(Redacted.make(KEYS.assemblyai)),
      assemblyaiBaseUrl: assemblyai.url,
      openaiApiKey: Option.some(Redacted.make(KEYS.openai)),
      openaiBaseUrl: openai.url,
      // AssemblyAI's transcript status asked for every 100 ms (ASSEMBLYAI_POLL_MS), not every 3 s:
      // the same requests, without the waits between them
      assemblyaiPollMs: 100,
      ...faults.config
    }, { workers: true })
    return Layer.merge(server, Layer.succeed(Providers, { deepgram, assemblyai, openai }))
  }))


/** Uploads a fixture and waits for its analysis; the call's status and its whole JSON. */
const analyse = (apiKey: string, name: string, closerEmail?: string) =>
  Effect.gen(function* () {
    const accepted = yield* upload(apiKey, fixture(name), { name, ...(closerEmail ? { closerEmail } : {}) })
    expect(accepted.status).toBe(202)
    const status = yield* settle(apiKey, accepted.body.call_id)
    const call = (yield* get(apiKey, `/v1/teams/calls/${accepted.body.call_id}`)).body
    return { callId: accepted.body.call_id as string, status, call }
  })

const element = (call: any, name: string) => call.qualification.elements.find((e: any) => e.element === name)
const dimension = (call: any, name: string) => call.scorecard.dimensions.find((d: any) => d.dimension === name)
const repSpeaker = (call: any) => call.speakers.find((s: any) => s.role === "rep").speaker
/** Every word of the truth, in order, whatever the segmentation. */
const wordsOf = (texts: ReadonlyArray<string>) => texts.join(" ").split(/\s+/).filter((w) => w.length > 0)

describe("transcripts", () => {
  // No test services: the workers, the providers and AssemblyAI's polling run on the real clock.
  layer(withProviders(), { excludeTestServices: true })("with the providers answering", (it) => {
    it.effect("discovery-short through Deepgram: transcript, content metrics, six dimensions, MEDDPICC, the dated next step; one credit", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* createTenant(3)
        const t = truth("discovery-short")
        const { callId, status, call } = yield* analyse(tenant.api_key, "discovery-short.wav", "mark@acme.test")

        expect(status).toMatchObject({ status: "completed", credits_charged: 1, error: null })
        expect(status.summary.transcript_available).toBe(true)
        expect(status.summary.overall_score).toBe(call.scorecard.overall)
        expect(yield* balanceOf(tenant.client_id)).toBe(2)

        // the request we sent: the file as the body, the key as `Token`, diarization and punctuation on
        const sent = providers.deepgram.requests.filter((r) => r.bodySha256 === sha256(fixture("discovery-short.wav")))
        expect(sent).toHaveLength(1)
        expect(sent[0]!.headers["authorization"]).toBe(`Token ${KEYS.deepgram}`)
        expect(sent[0]!.headers["content-type"]).toBe("audio/wav")
        expect(sent[0]!.query).toMatchObject({ diarize: "true", utterances: "true", punctuate: "true", smart_format: "true" })

        // every word of the call, in order, each segment one of our speakers
        expect(wordsOf(call.transcript.map((s: any) => s.text))).toEqual(wordsOf(t.turns.map((x) => x.text)))
        const ours = new Set(call.speakers.map((s: any) => s.speaker))
        expect(call.transcript.every((s: any) => ours.has(s.speaker) && s.end > s.start)).toBe(true)
        expect(call.transcription).toEqual({ provider: "deepgram", model: "nova-3", language: "en", diarization_agreement: expect.any(Number) })
        expect(call.transcription.diarization_agreement).toBeGreaterThanOrEqual(0.95)
        expect(call.method_version).toBe(METHOD_VERSION)

        // content metrics: the rep's five questions over 75 s, words per minute on both sides
        expect(call.metrics.question_count).toBe(5)
        expect(call.metrics.question_rate).toBeCloseTo((5 / t.duration) * 600, 0)
        expect(call.metrics.words_per_minute.rep).toBeGreaterThan(100)
        expect(call.metrics.words_per_minute.buyer).toBeGreaterThan(100)
        expect(call.metrics.filler_rate).toBe(0)

        // all six dimensions assessed, every point with its evidence
        expect(call.scorecard.dimensions.map((d: any) => [d.dimension, d.assessed])).toEqual([
          ["discovery", true], ["listening", true], ["objection_handling", true],
          ["value", true], ["next_steps", true], ["conversation_flow", true]
        ])
        for (const d of call.scorecard.dimensions) {
          const effects = call.evidence.filter((e: any) => e.dimension === d.dimension).reduce((s: number, e: any) => s + e.effect, 0)
          expect(d.score, d.dimension).toBe(Math.max(0, Math.min(100, 50 + effects)))
        }

        // the pain and its numbers, the economic buyer, the decision process, the competition
        expect(call.qualification.framework).toBe("MEDDPICC")
        expect(element(call, "identify_pain")).toMatchObject({ score: 2 })
        expect(element(call, "identify_pain").evidence.quote).toMatch(/win rate dropped from thirty one percent to twenty four percent/)
        expect(element(call, "metrics").score).toBe(2)
        expect(call.evidence.some((e: any) => e.dimension === "discovery" && /four hundred thousand dollars behind plan/.test(e.quote ?? ""))).toBe(true)
        expect(element(call, "economic_buyer")).toMatchObject({ score: 2 })
        expect(element(call, "economic_buyer").evidence.quote).toMatch(/VP of sales, signs off on anything over fifty thousand/)
        expect(element(call, "decision_process").evidence.quote).toMatch(/procurement and legal review the contract/)
        // "one other vendor" names no alternative and gives no figure: a vague mention (1)
        expect(element(call, "competition")).toMatchObject({ score: 1, evidence: { quote: "We are also looking at one other vendor." } })

        // the dated next step, owned by the rep
        expect(call.next_steps).toEqual([
          expect.objectContaining({ due: "Tuesday 14:00", owner: repSpeaker(call), quote: expect.stringMatching(/^Could we book thirty minutes next Tuesday/) })
        ])
        expect(call.objections).toEqual([expect.objectContaining({ kind: "competitor", response: "question_back" })])

        // the report: transcript, checklist, next step, provider and agreement
        const report = (yield* get(tenant.api_key, `/reports/${callId}/html`)).body as string
        expect(report).toContain("win rate dropped from thirty one percent")
        expect(report).toContain("MEDDPICC")
        expect(report).toContain("Tuesday 14:00")
        expect(report).toContain("Deepgram")
        expect(report).toMatch(new RegExp(`${Math.round(call.transcription.diarization_agreement * 100)}\\s*%`))
      }))

    it.effect("demo-objection through AssemblyAI (the tenant's flag): the objection to the price, pause and question back, the ROI argument, Friday at ten", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* createTenant(3)
        yield* setFlags(tenant.client_id, { transcriber: "assemblyai" })
        const deepgramBefore = providers.deepgram.requests.length
        const { status, call } = yield* analyse(tenant.api_key, "demo-objection.mp3")

        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        expect(providers.deepgram.requests.length).toBe(deepgramBefore)
        const uploadRequest = providers.assemblyai.requests.find((r) => r.path === "/v2/upload" && r.bodySha256 === sha256(fixture("demo-objection.mp3")))!
        expect(uploadRequest.headers["authorization"]).toBe(KEYS.assemblyai)
        const created = providers.assemblyai.requests.find((r) => r.path === "/v2/transcript" && (r.json as any)?.audio_url !== undefined)!
        expect(created.json).toMatchObject({ speaker_labels: true, punctuate: true })
        expect(call.transcription).toMatchObject({ provider: "assemblyai" })
        expect(call.transcription.diarization_agreement).toBeGreaterThanOrEqual(0.95)

        expect(call.objections).toEqual([
          expect.objectContaining({ kind: "price", quote: "That sounds useful, but honestly the price is a problem.", response: "question_back" })
        ])
        // the rep waited 1.4 s (truth 78.767 → 80.167); our turns' edges are within 0.3 s
        expect(Math.abs(call.objections[0].response_pause_s - 1.4)).toBeLessThanOrEqual(0.3)
        expect(dimension(call, "objection_handling").score).toBeGreaterThan(50)
        expect(call.evidence.some((e: any) => e.dimension === "value" && /pays for itself in about three months/.test(e.quote ?? ""))).toBe(true)
        expect(dimension(call, "value").score).toBeGreaterThan(50)
        expect(call.next_steps.map((n: any) => n.due)).toEqual(["Thursday", "Friday 10:00"])
        expect(call.next_steps.every((n: any) => n.owner === repSpeaker(call))).toBe(true)
      }))

    it.effect("trackers: the worker matches the tenant's trackers on the stored transcript when the analysis completes (docs/trackers.md)", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        const sql = yield* SqlClient.SqlClient
        const trackerId = `trk_test_${Date.now()}`
        yield* sql`INSERT INTO trackers (tracker_id, client_id, name, kind, terms)
                   VALUES (${trackerId}, ${tenant.client_id}, 'Deal words', 'risk', ${JSON.stringify(["contract", "revenue operations", "call"])}::jsonb)`
        const { callId, status, call } = yield* analyse(tenant.api_key, "discovery-short.wav", "mark@acme.test")
        expect(status.status).toBe("completed")
        // counted here from the stored transcript, by hand-written patterns
        const texts: Array<string> = call.transcript.map((s: any) => s.text)
        const count = (re: RegExp) => texts.reduce((n, text) => n + (text.match(re)?.length ?? 0), 0)
        const expected = { contract: count(/\bcontracts?\b/gi), "revenue operations": count(/\brevenue operations\b/gi), call: count(/\bcalls?\b/gi) }
        expect(expected).toEqual({ contract: 1, "revenue operations": 2, call: 4 })
        const rows = yield* sql<{ term: string; n: string; roles: string; quotes_ok: boolean }>`
          SELECT term, count(*)::text AS n, string_agg(DISTINCT coalesce(role, '?'), ',') AS roles,
                 bool_and(position(matched in quote) > 0) AS quotes_ok
          FROM tracker_mentions WHERE tracker_id = ${trackerId} AND call_id = ${callId} GROUP BY term ORDER BY term`
        expect(Object.fromEntries(rows.map((r) => [r.term, Number(r.n)]))).toEqual(expected)
        expect(rows.every((r) => r.quotes_ok && !r.roles.includes("?"))).toBe(true)
      }))

    it.effect("trackers: a match the database refuses rolls back alone; the call still completes, charged once, its event recorded", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        const sql = yield* SqlClient.SqlClient
        const trackerId = `trk_refused_${Date.now()}`
        yield* sql`INSERT INTO trackers (tracker_id, client_id, name, kind, terms)
                   VALUES (${trackerId}, ${tenant.client_id}, 'Refused', 'risk', ${JSON.stringify(["call"])}::jsonb)`
        // A real error inside the completion's transaction: the database refuses this tracker's mentions.
        const fn = `refuse_${trackerId}`
        yield* sql.unsafe(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.tracker_id = '${trackerId}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`)
        yield* sql.unsafe(`CREATE TRIGGER ${fn} BEFORE INSERT ON tracker_mentions FOR EACH ROW EXECUTE FUNCTION ${fn}()`)
        const analysed = yield* analyse(tenant.api_key, "discovery-short.wav").pipe(
          Effect.ensuring(Effect.orDie(Effect.zipRight(
            sql.unsafe(`DROP TRIGGER ${fn} ON tracker_mentions`),
            sql.unsafe(`DROP FUNCTION ${fn}()`)
          )))
        )
        expect(analysed.status.status).toBe("completed")
        expect(analysed.call.transcript.some((s: any) => /\bcalls?\b/i.test(s.text))).toBe(true)
        expect(yield* balanceOf(tenant.client_id)).toBe(2)
        const mentions = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tracker_mentions WHERE tracker_id = ${trackerId}`
        expect(mentions[0].n).toBe(0)
        const events = yield* sql<{ type: string }>`SELECT type FROM call_events WHERE call_id = ${analysed.callId} ORDER BY received_at`
        expect(events.map((e) => e.type)).toEqual(["upload_accepted", "analysis_completed"])
      }))

    it.effect("a rep-monologue call scores lower on Discovery and Listening than discovery-short", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        const discovery = yield* analyse(tenant.api_key, "discovery-short.mp3")
        const monologue = yield* analyse(tenant.api_key, "rep-monologue.mp3")
        expect(monologue.status.status).toBe("completed")
        // the acoustic side got the call right: the rep talked 95 % of it, one long monologue
        expect(monologue.call.metrics.talk_ratio).toBeGreaterThan(0.9)
        expect(monologue.call.metrics.longest_monologue_s).toBeGreaterThan(100)
        expect(monologue.call.metrics.question_count).toBeLessThanOrEqual(2)
        expect(monologue.call.next_steps).toEqual([])
        for (const name of ["discovery", "listening"]) {
          expect(dimension(monologue.call, name).score, name).toBeLessThan(dimension(discovery.call, name).score)
        }
        expect(dimension(monologue.call, "next_steps").score).toBeLessThan(dimension(discovery.call, "next_steps").score)
        expect(monologue.call.scorecard.overall).toBeLessThan(discovery.call.scorecard.overall)
      }))

    it.effect("renewal-stereo through OpenAI's diarizing model (the tenant's flag): multipart with the model, diarized_json, chunking", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* createTenant(3)
        yield* setFlags(tenant.client_id, { transcriber: "openai" })
        const { status, call } = yield* analyse(tenant.api_key, "renewal-stereo.wav")
        expect(status.status).toBe("completed")
        const sent = providers.openai.requests.find((r) => r.form?.files["file"]?.sha256 === sha256(fixture("renewal-stereo.wav")))!
        expect(sent.path).toBe("/v1/audio/transcriptions")
        expect(sent.headers["authorization"]).toBe(`Bearer ${KEYS.openai}`)
        expect(sent.form!.fields).toMatchObject({
          model: ["gpt-4o-transcribe-diarize"],
          response_format: ["diarized_json"],
          chunking_strategy: ["auto"]
        })
        expect(call.transcription).toMatchObject({ provider: "openai", model: "gpt-4o-transcribe-diarize" })
        // stereo: each channel's words are its party's, in order (turns overlap, so the words of the
        // whole call interleave where they do)
        const t = truth("renewal-stereo")
        for (const [party, role] of [["rep", "rep"], ["prospect", "buyer"]] as const) {
          const speaker = call.speakers.find((s: any) => s.role === role).speaker
          expect(wordsOf(call.transcript.filter((s: any) => s.speaker === speaker).map((s: any) => s.text)), party)
            .toEqual(wordsOf(t.turns.filter((x) => x.speaker === party).map((x) => x.text)))
        }
      }))

    it.effect("a tenant flagged none is analysed acoustic-only although the server has a provider", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* createTenant(3)
        yield* setFlags(tenant.client_id, { transcriber: "none" })
        const before = providers.deepgram.requests.length
        const { status, call } = yield* analyse(tenant.api_key, "discovery-short.mp3")
        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        expect(status.summary.transcript_available).toBe(false)
        expect(providers.deepgram.requests.length).toBe(before)
        expect([call.transcript, call.transcription, call.qualification]).toEqual([null, null, null])
        expect(call.scorecard.dimensions.filter((d: any) => d.assessed).map((d: any) => d.dimension)).toEqual(["listening", "conversation_flow"])
      }))

    it.effect("the transcript is left out of the report when the tenant's report.include_transcript is false", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        yield* setFlags(tenant.client_id, { "report.include_transcript": false })
        const { callId, call } = yield* analyse(tenant.api_key, "discovery-short.mp3")
        expect(call.transcript).not.toBeNull()
        const report = (yield* get(tenant.api_key, `/reports/${callId}/html`)).body as string
        // the qualification quote stays; the full transcript (the rep's opening line) does not
        expect(report).toContain("VP of sales, signs off on anything over fifty thousand")
        expect(report).not.toContain("Thanks for making time today")
      }))
  })

  layer(
    withProviders({
      deepgram: { failAlways: 401 },
      // done at the first poll: the upload's retry (1 s) and one poll (100 ms) stay inside the timeout
      assemblyai: { path: "/v2/upload", failFirst: [{ status: 500 }], pendingPolls: 0 },
      openai: { hang: true },
      config: { transcriberTimeoutSeconds: 4 }
    }),
    { excludeTestServices: true }
  )("with the providers failing", (it) => {
    it.effect("a refused key fails the call with transcription_failed at once: no credit, no retry, an event", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* createTenant(3)
        const { callId, status } = yield* analyse(tenant.api_key, "discovery-short.mp3")
        expect(status).toMatchObject({ status: "failed", credits_charged: 0, summary: null })
        expect(status.error.code).toBe("transcription_failed")
        expect(status.error.message).toBe("Deepgram answered the transcription request with HTTP 401: the key was refused")
        expect(yield* balanceOf(tenant.client_id)).toBe(3)
        expect(providers.deepgram.requests.filter((r) => r.bodySha256 === sha256(fixture("discovery-short.mp3")))).toHaveLength(1)
        expect((yield* get(tenant.api_key, `/reports/${callId}/html`)).status).toBe(409)
        const sql = yield* SqlClient.SqlClient
        const jobs = yield* sql<{ attempts: number; state: string }>`SELECT attempts, state FROM analysis_jobs WHERE call_id = ${callId}`
        expect(jobs).toEqual([{ attempts: 1, state: "failed" }])
        const events = yield* sql<{ type: string; error: string }>`SELECT type, error FROM call_events WHERE call_id = ${callId} AND type = 'analysis_failed'`
        expect(events).toHaveLength(1)
        expect(events[0]!.error).toMatch(/transcription_failed/)
      }))

    it.effect("a 500 from the provider is retried, and the call completes with one credit", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* createTenant(3)
        yield* setFlags(tenant.client_id, { transcriber: "assemblyai" })
        const { status, call } = yield* analyse(tenant.api_key, "demo-objection.mp3")
        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        expect(call.transcription.provider).toBe("assemblyai")
        const uploads = providers.assemblyai.requests.filter((r) => r.path === "/v2/upload")
        expect(uploads).toHaveLength(2)
        // the file is sent whole again
        expect(uploads[1]!.bodySha256).toBe(uploads[0]!.bodySha256)
        expect(yield* balanceOf(tenant.client_id)).toBe(2)
      }))

    it.effect("a provider that never answers fails the call after TRANSCRIBER_TIMEOUT_SECONDS, without a credit", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(3)
        yield* setFlags(tenant.client_id, { transcriber: "openai" })
        const { status } = yield* analyse(tenant.api_key, "renewal-stereo.mp3")
        expect(status).toMatchObject({ status: "failed", credits_charged: 0 })
        expect(status.error).toEqual({ code: "transcription_failed", message: expect.stringMatching(/OpenAI did not answer .* within 4s/) })
        expect(yield* balanceOf(tenant.client_id)).toBe(3)
      }))
  })

  layer(withProviders({ config: { transcriber: "none", deepgramApiKey: Option.none() } }), { excludeTestServices: true })(
    "on a server without a Deepgram key",
    (it) => {
      it.effect("a tenant flagged deepgram fails with transcription_failed naming the missing variable; others stay acoustic-only", () =>
        Effect.gen(function* () {
          const providers = yield* Providers
          const flagged = yield* createTenant(3)
          yield* setFlags(flagged.client_id, { transcriber: "deepgram" })
          const failed = yield* analyse(flagged.api_key, "discovery-short.mp3")
          expect(failed.status).toMatchObject({ status: "failed", credits_charged: 0 })
          expect(failed.status.error).toEqual({
            code: "transcription_failed",
            message: "this server has no DEEPGRAM_API_KEY: deepgram cannot be used"
          })
          expect(providers.deepgram.requests).toHaveLength(0)
          expect(yield* balanceOf(flagged.client_id)).toBe(3)

          const other = yield* createTenant(3)
          const plain = yield* analyse(other.api_key, "discovery-short.mp3")
          expect(plain.status).toMatchObject({ status: "completed", credits_charged: 1 })
          expect(plain.call.transcript).toBeNull()
        }))
    }
  )
})
