/**
 * End to end through @callsight/client: the real `callsight serve` (with its analysis workers)
 * analyses the fixture calls uploaded with the Promise facade (a path, bytes, a Blob, a file URL)
 * and with the Effect client; reports, whole analyses, the calls list, credits and failures.
 */
import { AudioSourceError, CallsightClient, CallsightError, createCallsightClient, WaitTimeout } from "@callsight/client"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { FIXTURE_FILES, writeWavClip } from "./utils/Audio.js"
import { sharedServer } from "./utils/Server.js"

const CREDITS = 10
const ANALYSIS_TIMEOUT_MS = 240_000

let server: { readonly url: string; readonly adminKey: string }
let scratch: string
let admin: ReturnType<typeof createCallsightClient>
let tenant: { client_id: string; api_key: string }
let client: ReturnType<typeof createCallsightClient>

beforeAll(async () => {
  server = await sharedServer()
  scratch = await mkdtemp(join(tmpdir(), "callsight-audio-client-"))
  admin = createCallsightClient({ baseUrl: server.url, apiKey: server.adminKey })
  tenant = await admin.admin.createClient({ company_name: "Audio Client Co", credits: CREDITS })
  client = createCallsightClient({ baseUrl: server.url, apiKey: tenant.api_key })
})

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

/** `fetch` answering `ms` later than the real one. */
const slowFetch = (ms: number): typeof fetch => (input, init) =>
  new Promise((r) => setTimeout(r, ms)).then(() => fetch(input, init))

/** The rejection of `promise`, which must be a `CallsightError`. */
const failure = async (promise: Promise<unknown>): Promise<CallsightError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(CallsightError)
  return error as CallsightError
}

interface Uploaded {
  readonly name: string
  readonly callId: string
}

/** The fixture calls in upload order (oldest first). */
const uploaded: Array<Uploaded> = []
const completedCallIds = new Set<string>()

describe("audio analysis through the Promise facade", () => {
  it("uploads a path, bytes, a Blob and a file URL; answers 202 queued with the links", async () => {
    const progress: Array<{ sent: number; total: number }> = []
    const wav = await client.uploadAudio(FIXTURE_FILES.wav, {
      externalCallId: "ext-wav",
      closerEmail: "closer@acme.test",
      onProgress: (p) => progress.push(p)
    })
    expect(wav).toMatchObject({ status: "queued", external_call_id: "ext-wav" })
    expect(wav.call_id).toEqual(expect.any(String))
    expect(wav.status_url).toMatch(new RegExp(`/analysis/${wav.call_id}$`))
    expect(wav.report_url).toMatch(new RegExp(`/reports/${wav.call_id}/html$`))
    // the file was streamed in pieces and the last report covers the whole body
    expect(progress.length).toBeGreaterThan(2)
    const last = progress.at(-1)!
    expect(last.sent).toBe(last.total)
    expect(last.total).toBeGreaterThan((await readFile(FIXTURE_FILES.wav)).length)
    uploaded.push({ name: "wav", callId: wav.call_id })

    const mp3 = await client.uploadAudio(new Uint8Array(await readFile(FIXTURE_FILES.mp3)), {
      filename: "demo-objection.mp3",
      externalCallId: "ext-mp3"
    })
    expect(mp3.external_call_id).toBe("ext-mp3")
    uploaded.push({ name: "mp3", callId: mp3.call_id })

    const m4a = await client.uploadAudio(new Blob([await readFile(FIXTURE_FILES.m4a)], { type: "audio/mp4" }))
    expect(m4a.external_call_id).toBeNull()
    uploaded.push({ name: "m4a", callId: m4a.call_id })

    const stereo = await client.uploadAudio(pathToFileURL(FIXTURE_FILES.stereo), { externalCallId: "ext-stereo" })
    uploaded.push({ name: "stereo", callId: stereo.call_id })

    expect(new Set(uploaded.map((u) => u.callId)).size).toBe(4)
  })

  it("waitForCompletion follows each analysis to completed; one credit each", { timeout: ANALYSIS_TIMEOUT_MS + 10_000 }, async () => {
    const seen = new Map<string, Set<string>>()
    const finals = await Promise.all(
      uploaded.map((u) =>
        client.waitForCompletion(u.callId, {
          timeoutMs: ANALYSIS_TIMEOUT_MS,
          intervalMs: 200,
          maxIntervalMs: 1_000,
          onStatus: (s) => {
            const stages = seen.get(u.callId) ?? new Set<string>()
            stages.add(`${s.status}:${s.stage}`)
            seen.set(u.callId, stages)
          }
        })
      )
    )
    for (const [i, final] of finals.entries()) {
      expect(final.call_id, uploaded[i]!.name).toBe(uploaded[i]!.callId)
      expect(final.error, uploaded[i]!.name).toBeNull()
      expect(final.status, uploaded[i]!.name).toBe("completed")
      expect(final.stage).toBe("done")
      expect(final.progress).toBe(1)
      expect(final.credits_charged).toBe(1)
      expect(final.duration_s).toBeGreaterThan(2)
      expect(final.started_at).toEqual(expect.any(String))
      expect(final.completed_at).toEqual(expect.any(String))
      expect(final.summary).not.toBeNull()
      expect(final.summary!.speakers).toBeGreaterThanOrEqual(1)
      expect(seen.get(final.call_id)?.has("completed:done")).toBe(true)
      completedCallIds.add(final.call_id)
    }
    // a status read again is the same
    const again = await client.getAnalysis(uploaded[0]!.callId)
    expect(again.status).toBe("completed")
    expect(again.credits_charged).toBe(1)
  })

  it("serves each report as text/html with the call id and an <svg>", async () => {
    for (const u of uploaded) {
      const html = await client.getReportHtml(u.callId)
      expect(html, u.name).toContain(u.callId)
      expect(html, u.name).toMatch(/<svg[\s>]/)
    }
    const response = await fetch(`${server.url}/reports/${uploaded[0]!.callId}/html`, {
      headers: { "x-api-key": tenant.api_key }
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
  })

  it("getCall answers the whole analysis: speaker turns and metrics", async () => {
    for (const u of uploaded) {
      const call = await client.getCall(u.callId)
      expect(call.call_id).toBe(u.callId)
      expect(call.status).toBe("completed")
      expect(call.speaker_turns.length, u.name).toBeGreaterThan(0)
      for (const turn of call.speaker_turns) expect(turn.end).toBeGreaterThan(turn.start)
      expect(call.metrics, u.name).not.toBeNull()
      expect(call.speakers.length).toBeGreaterThanOrEqual(1)
      expect(call.scorecard).not.toBeNull()
      expect(call.error).toBeNull()
      if (u.name === "stereo") expect(call.channels).toBe(2)
      if (u.name === "wav") expect(call.closer_email).toBe("closer@acme.test")
    }
  })

  it("listCalls lists them newest first, a page at a time with a working cursor", async () => {
    const newestFirst = [...uploaded].reverse().map((u) => u.callId)
    const all = await client.listCalls()
    expect(all.calls.map((c) => c.call_id)).toEqual(newestFirst)
    expect(all.next_cursor).toBeNull()
    expect(all.calls.every((c) => c.status === "completed" && c.overall_score !== undefined)).toBe(true)

    const pages: Array<Array<string>> = []
    let cursor: string | undefined
    for (;;) {
      const page = await client.listCalls({ limit: 3, ...(cursor === undefined ? {} : { cursor }) })
      pages.push(page.calls.map((c) => c.call_id))
      if (page.next_cursor === null) break
      cursor = page.next_cursor
    }
    expect(pages.map((p) => p.length)).toEqual([3, 1])
    expect(pages.flat()).toEqual(newestFirst)

    const bad = await failure(client.listCalls({ cursor: "not-a-cursor" }))
    expect(bad.tag).toBe("ValidationFailed")
    expect(bad.status).toBe(422)
  })

  it("a 1-second clip ends failed (too_short): waitForCompletion resolves with it; no credit, no report", { timeout: 120_000 }, async () => {
    const clip = await writeWavClip(FIXTURE_FILES.wav, join(scratch, "one-second.wav"), 1)
    const accepted = await client.uploadAudio(clip, { idempotencyKey: "short-clip-1" })
    const final = await client.waitForCompletion(accepted.call_id, { timeoutMs: 100_000, intervalMs: 100 })
    expect(final.status).toBe("failed")
    expect(final.error?.code).toBe("too_short")
    expect(final.credits_charged).toBe(0)
    expect(final.summary).toBeNull()

    const report = await failure(client.getReportHtml(accepted.call_id))
    expect(report.tag).toBe("Conflict")
    expect(report.status).toBe(409)
    const call = await client.getCall(accepted.call_id)
    expect(call.status).toBe("failed")
    expect(call.error?.code).toBe("too_short")

    // the same key and file: the same call again; the key with another file: 409
    const replay = await client.uploadAudio(clip, { idempotencyKey: "short-clip-1" })
    expect(replay.call_id).toBe(accepted.call_id)
    const other = await failure(client.uploadAudio(FIXTURE_FILES.stereo, { idempotencyKey: "short-clip-1" }))
    expect(other.tag).toBe("Conflict")
    expect(other.status).toBe(409)
  })

  it("each completed call took exactly one credit; the failed one none", async () => {
    expect(completedCallIds.size).toBe(4)
    const balance = await admin.admin.grantCredits(tenant.client_id, { amount: 1, reason: "balance check" })
    expect(balance.balance).toBe(CREDITS - completedCallIds.size + 1)
  })

  it("deleteCall removes a call for good: 404 afterwards, its credit kept", async () => {
    const accepted = await client.uploadAudio(FIXTURE_FILES.wav, { externalCallId: "to-delete" })
    const deleted = await client.deleteCall(accepted.call_id)
    expect(deleted).toEqual({ call_id: accepted.call_id, deleted: true, credits_charged: 0 })
    const gone = await failure(client.getCall(accepted.call_id))
    expect(gone.tag).toBe("NotFound")
    expect((await failure(client.deleteCall(accepted.call_id))).status).toBe(404)
    const listed = await client.listCalls({ limit: 200 })
    expect(listed.calls.map((c) => c.call_id)).not.toContain(accepted.call_id)
  })

  it("typed failures: unknown call, wrong key, not audio, no such file, no credit, timeout", async () => {
    const missing = await failure(client.getAnalysis("call_doesnotexist"))
    expect(missing.tag).toBe("NotFound")
    expect(missing.status).toBe(404)

    const wrongKey = createCallsightClient({ baseUrl: server.url, apiKey: "csk_wrong" })
    const unauthorized = await failure(wrongKey.uploadAudio(FIXTURE_FILES.wav))
    expect(unauthorized.tag).toBe("Unauthorized")
    expect(unauthorized.status).toBe(401)

    const notAudio = await failure(client.uploadAudio(new TextEncoder().encode("just some text, not a recording\n".repeat(100)), { filename: "notes.txt" }))
    expect(notAudio.tag).toBe("UnsupportedMediaType")
    expect(notAudio.status).toBe(415)

    const noFile = await failure(client.uploadAudio(join(scratch, "nope.wav")))
    expect(noFile.tag).toBe("AudioSourceError")
    expect(noFile.message).toMatch(/no such file/)

    const broke = await admin.admin.createClient({ company_name: "No Credit Co", credits: 0 })
    const paymentRequired = await failure(
      createCallsightClient({ baseUrl: server.url, apiKey: broke.api_key }).uploadAudio(FIXTURE_FILES.mp3)
    )
    expect(paymentRequired.tag).toBe("PaymentRequired")
    expect(paymentRequired.status).toBe(402)

    // every answer takes 300 ms: a wait of 100 ms on a completed call times out before its first status
    const slow = createCallsightClient({ baseUrl: server.url, apiKey: tenant.api_key, fetch: slowFetch(300) })
    const timeout = await failure(slow.waitForCompletion(uploaded[0]!.callId, { timeoutMs: 100 }))
    expect(timeout.tag).toBe("WaitTimeout")
    expect(timeout.status).toBeUndefined()
    expect(timeout.message).toMatch(/did not end within 100 ms/)
    expect(timeout.body).toMatchObject({ call_id: uploaded[0]!.callId, timeout_ms: 100 })
  })
})

describe("audio analysis through the Effect client", () => {
  // live clock: the waits really sleep
  it.live("uploads, waits, reads the analysis and the report; typed errors", () =>
    Effect.gen(function* () {
      const admin = yield* CallsightClient
      const created = yield* Effect.promise(() =>
        createCallsightClient({ baseUrl: server.url, apiKey: server.adminKey }).admin.createClient({
          company_name: "Effect Audio Ltd",
          credits: 2
        })
      )
      const callsight = admin.withApiKey(created.api_key)
      const accepted = yield* callsight.uploadAudio(FIXTURE_FILES.stereo, { externalCallId: "effect-1" })
      const stages: Array<string> = []
      const final = yield* callsight.waitForCompletion(accepted.call_id, {
        timeoutMs: ANALYSIS_TIMEOUT_MS,
        onStatus: (s) => stages.push(s.stage)
      })
      expect(final.status).toBe("completed")
      expect(stages.at(-1)).toBe("done")
      const call = yield* callsight.getCall(accepted.call_id)
      expect(call.speaker_turns.length).toBeGreaterThan(0)
      expect(call.metrics).not.toBeNull()
      const html = yield* callsight.getReportHtml(accepted.call_id)
      expect(html).toContain(accepted.call_id)
      const page = yield* callsight.listCalls({ limit: 1 })
      expect(page.calls.map((c) => c.call_id)).toEqual([accepted.call_id])
      expect(page.next_cursor).toBeNull()

      const notFound = yield* Effect.flip(callsight.getAnalysis("call_nope"))
      expect(notFound._tag).toBe("NotFound")
      const noFile = yield* Effect.flip(callsight.uploadAudio("/nonexistent/call.wav"))
      expect(noFile).toBeInstanceOf(AudioSourceError)
      const timeout = yield* Effect.flip(
        callsight.waitForCompletion(accepted.call_id, { timeoutMs: 100 }).pipe(
          Effect.provideService(FetchHttpClient.Fetch, slowFetch(300))
        )
      )
      expect(timeout).toBeInstanceOf(WaitTimeout)
      expect((timeout as WaitTimeout).call_id).toBe(accepted.call_id)

      // one credit taken: 2 - 1 + 1
      const balance = yield* Effect.promise(() =>
        createCallsightClient({ baseUrl: server.url, apiKey: server.adminKey }).admin.grantCredits(created.client_id, {
          amount: 1,
          reason: "check"
        })
      )
      expect(balance.balance).toBe(2)
    }).pipe(Effect.provide(CallsightClient.layerFetch({ baseUrl: server.url, apiKey: server.adminKey }))), { timeout: ANALYSIS_TIMEOUT_MS + 10_000 })
})
