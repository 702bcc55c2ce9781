/**
 * What an upload says of its call (issue 35): its type (`call_type`) and, for stereo, the rep's
 * channel (`rep_channel`: left, right or auto; unset, the tenant's default from its lead-context
 * profile, auto unless set). In-process, with the workers and a local server speaking Deepgram's
 * protocol (it answers the words of the fixture it receives): each value is stored with the call,
 * shown in the status and the call's JSON, passed to the analysis and shown in the report; a bad
 * value is 422 naming the field. `auto` takes the channel whose speaker asks the questions: the
 * renewal-stereo call has the rep on the left, renewal-stereo-swapped the same call with its
 * channels swapped (`sox renewal-stereo.wav renewal-stereo-swapped.wav remix 2 1`).
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Redacted } from "effect"
import { createTenant, get, settle } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { startDeepgram } from "./utils/SpeechProviders.js"
import { testServerLayer } from "./utils/TestServer.js"
import { HttpClient, HttpClientRequest } from "@effect/platform"

const KEY = "dg-test-key"

const withDeepgram = Layer.unwrapScoped(Effect.gen(function* () {
  const deepgram = yield* startDeepgram({ apiKey: KEY })
  return testServerLayer({
    workerConcurrency: 2,
    transcriber: "deepgram",
    deepgramApiKey: Option.some(Redacted.make(KEY)),
    deepgramBaseUrl: deepgram.url
  }, { workers: true })
}))

/** Uploads a fixture with these form fields; the status code and body. */
const uploadWith = (apiKey: string, name: string, fields: Record<string, string>) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const form = new FormData()
    form.append("audio", new Blob([fixture(name)]), name)
    for (const [k, v] of Object.entries(fields)) form.append(k, v)
    const response = yield* client.execute(
      HttpClientRequest.post("/v1/teams/audio").pipe(HttpClientRequest.setHeader("x-api-key", apiKey), HttpClientRequest.bodyFormData(form))
    )
    return { status: response.status, body: (yield* response.json) as any }
  })

/** Uploads, waits, and reads the status, the call's JSON and its report. */
const analyse = (apiKey: string, name: string, fields: Record<string, string>) =>
  Effect.gen(function* () {
    const accepted = yield* uploadWith(apiKey, name, fields)
    expect(accepted.status).toBe(202)
    const callId = accepted.body.call_id as string
    const status = yield* settle(apiKey, callId)
    expect(status.status).toBe("completed")
    const call = (yield* get(apiKey, `/v1/teams/calls/${callId}`)).body
    const report = (yield* get(apiKey, `/reports/${callId}/html`)).body as string
    return { callId, status, call, report }
  })

const roleOf = (call: any, speaker: string) => call.speakers.find((s: any) => s.speaker === speaker).role

describe("call type and rep channel at upload", () => {
  layer(withDeepgram, { excludeTestServices: true })("with workers and a transcriber", (it) => {
    it.effect("auto on a stereo call whose right channel asks the questions: the rep is on the right, and the type given wins", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        const { call, report, status } = yield* analyse(tenant.api_key, "renewal-stereo-swapped.wav", {
          call_type: "renewal",
          rep_channel: "auto"
        })
        expect(status.requested_call_type).toBe("renewal")
        expect(status.requested_rep_channel).toBe("auto")
        expect(call.requested_call_type).toBe("renewal")
        expect(call.requested_rep_channel).toBe("auto")
        expect(call.channels).toBe(2)
        expect(call.rep_channel).toEqual({
          requested: "auto",
          chosen: "right",
          reason: expect.stringMatching(/^auto, from the words: the right channel asked (\d+) of the \1 questions/)
        })
        expect(roleOf(call, "S2")).toBe("rep")
        expect(roleOf(call, "S1")).toBe("buyer")
        // the rep's words are the right channel's: the renewal is the rep's to bring up
        const repSegment = call.transcript.find((t: any) => t.text.startsWith("Hi Tom"))
        expect(repSegment.speaker).toBe("S2")
        expect(call.call_type).toEqual({ type: "renewal", source: "given", confidence: 1, reason: "given at upload" })
        expect(call.scorecard.dimensions.find((d: any) => d.dimension === "next_steps").weight).toBe(0.25)
        expect(report).toContain("<dt>Call type</dt><dd>Renewal · given</dd>")
        expect(report).toContain("<dt>Rep channel</dt><dd>right (auto)</dd>")
        expect(report).toMatch(/Rep channel right: auto, from the words: the right channel asked \d+ of the \d+ questions/)
      }))

    it.effect("nothing said: the tenant's default (auto) finds the rep on the left, and the type is detected", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        const { call, report, status } = yield* analyse(tenant.api_key, "renewal-stereo.wav", {})
        expect(status.requested_call_type).toBeNull()
        expect(status.requested_rep_channel).toBeNull()
        expect(call.rep_channel).toMatchObject({ requested: "auto", chosen: "left" })
        expect(roleOf(call, "S1")).toBe("rep")
        expect(call.call_type.source).toBe("detected")
        expect(call.call_type.confidence).toBeGreaterThan(0)
        expect(call.call_type.confidence).toBeLessThan(1)
        expect(call.call_type.reason).toMatch(/^detected from the words of the call: "/)
        expect(report).toMatch(/<dt>Call type<\/dt><dd>[A-Z][a-z/]+ · detected, \d+ % sure<\/dd>/)
      }))

    it.effect("a channel given wins over auto, and over the tenant's default", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        // the tenant's default, where the portal keeps it (its lead-context profile)
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO lead_context_profiles (client_id, profile, updated_at)
                   VALUES (${tenant.client_id}, ${JSON.stringify({ rep_channel: "right" })}::jsonb, now())`
        const byDefault = yield* analyse(tenant.api_key, "renewal-stereo.wav", {})
        expect(byDefault.call.rep_channel).toEqual({ requested: "right", chosen: "right", reason: "set to the right channel" })
        expect(roleOf(byDefault.call, "S2")).toBe("rep")
        const given = yield* analyse(tenant.api_key, "renewal-stereo-swapped.wav", { rep_channel: "left", call_type: "negotiation" })
        expect(given.status.requested_rep_channel).toBe("left")
        expect(given.call.rep_channel).toEqual({ requested: "left", chosen: "left", reason: "set to the left channel" })
        expect(roleOf(given.call, "S1")).toBe("rep")
        // discovery does not apply to a negotiation call: not assessed, why, left out of the overall
        const discovery = given.call.scorecard.dimensions.find((d: any) => d.dimension === "discovery")
        expect(discovery).toMatchObject({ score: null, assessed: false, weight: 0 })
        expect(discovery.reason).toMatch(/^does not apply to a negotiation call/)
        expect(given.call.scorecard.overall_basis.of).toBe(5)
        expect(given.status.summary.overall_basis.of).toBe(5)
        expect(given.report).toContain("does not apply to a negotiation call")
      }))

    it.effect("a bad call_type or rep_channel is 422 naming the field, and makes no call", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(5)
        for (const [field, value] of [["call_type", "webinar"], ["rep_channel", "middle"], ["call_type", "Demo"]] as const) {
          const reply = yield* uploadWith(tenant.api_key, "renewal-stereo.mp3", { [field]: value })
          expect(reply.status).toBe(422)
          expect(reply.body.detail[0].loc).toEqual(["body", field])
          expect(reply.body.detail[0].msg).toMatch(/^must be one of /)
        }
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE client_id = ${tenant.client_id}`
        expect(row!.n).toBe(0)
      }))
  })
})
