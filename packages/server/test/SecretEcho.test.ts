/**
 * Issue 32, finding 4: a speech-to-text provider that echoes the key in its error answer. The
 * providers are local servers speaking Deepgram's, AssemblyAI's and OpenAI's protocols that take
 * the key check (or need none) and then answer the transcription with 401 and a body repeating the
 * key raw, JSON-escaped, URL- and form-encoded (either case of hex), in base64, base64url and
 * inside `Basic base64(user:key)`, with a sentence of their own. The keys hold reserved characters
 * (`+/=&%` and spaces). A call is uploaded, the worker fails it, and the key, in none of its forms,
 * appears anywhere a caller, an operator or the database sees the failure: the analysis status and
 * the call, the portal's events, health and operational-trust views, the assistant's and the
 * admin's views, the analysis.failed webhook and the upload's callback, every column of the call's
 * rows (calls, analysis_jobs, call_events, webhook_deliveries), and every log line. The message a
 * caller sees names the provider and the status, never the provider's own words; the operator's
 * log line keeps those words, blanked.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { admin, get, setFlags, settle } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, tenantWithOwner } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { type SpeechProviderServer, startAssemblyAI, startDeepgram, startOpenAI } from "./utils/SpeechProviders.js"
import { ASSISTANT_KEY } from "./utils/TestServer.js"
import { type Receiver, startReceiver } from "./utils/WebhookReceiver.js"

/** The tenant's Deepgram key: reserved characters of URLs, forms and base64. */
const DEEPGRAM_KEY = "dg+key/with=reserved&chars%20x"
/** The tenant's AssemblyAI key (sent bare in `Authorization`): spaces too. */
const ASSEMBLYAI_KEY = "aai key+with/reserved=chars&x%2F y"
/** The server's own OpenAI key (OPENAI_API_KEY), used for a tenant whose flag says openai. */
const SERVER_OPENAI_KEY = "sk-srv+open/ai=key&with%25reserved"

/** The provider's own sentence: it must never reach a caller. */
const OWN_WORDS = "zebra-quokka gateway"

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64")
const form = (s: string) => new URLSearchParams({ k: s }).toString().slice(2)
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())

/** The 401 body of a provider that repeats the key every way it can. */
const echoBody = (key: string) =>
  JSON.stringify({
    err_code: "INVALID_AUTH",
    err_msg: `Invalid credentials. The ${OWN_WORDS} refused the key ${key} (${encodeURIComponent(key)})`,
    error: { message: `Incorrect API key provided: ${key}. The ${OWN_WORDS} says so.`, type: "invalid_request_error" },
    request: {
      authorization: `Token ${key}`,
      query: `api_key=${form(key)}&lower=${lowerHex(form(key))}`,
      encoded: encodeURIComponent(key),
      encoded_lower: lowerHex(encodeURIComponent(key)),
      basic: `Basic ${b64(`user:${key}`)}`,
      base64: b64(key),
      base64url: Buffer.from(key, "utf8").toString("base64url"),
      // behind one and two bytes: the other alignments of a longer base64 text
      base64_shifted: [b64(`u${key}`), b64(`us${key}`), Buffer.from(`u${key}`, "utf8").toString("base64url")]
    }
  })

/** 401 with the echo, to every request on `path`, as many as a test makes. */
const echoing = (key: string, path: string) => ({
  path,
  failFirst: Array.from({ length: 50 }, () => ({ status: 401, body: echoBody(key) }))
})

/**
 * Every recognisable form of the key: raw, JSON-escaped, percent- and form-encoded (either case),
 * and the base64 characters that carry its bytes alone, at each of the 3 byte alignments (inside
 * `Basic base64(user:key)` too), in base64 and base64url.
 */
const formsOf = (key: string): Array<string> => {
  const forms = [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), form(key), lowerHex(encodeURIComponent(key)), lowerHex(form(key))]
  for (const prefix of ["", "u", "us", "user:"]) {
    const encoded = b64(`${prefix}${key}`)
    const from = Math.ceil((prefix.length * 8) / 6) + 1
    const core = encoded.slice(from, from + Math.floor((key.length * 8) / 6) - 3)
    forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"))
  }
  return [...new Set(forms)]
}

/** The forms of `key` found in `text` (none, when nothing leaks). */
const leaksOf = (key: string, text: string) => formsOf(key).filter((f) => text.includes(f))

class Setup extends Context.Tag("test/SecretEcho")<Setup, {
  readonly deepgram: SpeechProviderServer
  readonly assemblyai: SpeechProviderServer
  readonly openai: SpeechProviderServer
  readonly receiver: Receiver
  readonly logs: Array<string>
}>() {}

const withProviders = Layer.unwrapScoped(Effect.gen(function* () {
  // the key check (GET /v1/projects, GET /v2/transcript?limit=1) passes; the transcription gets the echo
  const deepgram = yield* startDeepgram({ apiKey: DEEPGRAM_KEY, ...echoing(DEEPGRAM_KEY, "/v1/listen") })
  const assemblyai = yield* startAssemblyAI({ apiKey: ASSEMBLYAI_KEY, ...echoing(ASSEMBLYAI_KEY, "/v2/upload") })
  const openai = yield* startOpenAI({ ...echoing(SERVER_OPENAI_KEY, "/v1/audio/transcriptions") })
  const receiver = yield* startReceiver()
  const logs: Array<string> = []
  const server = serverWithSmtp({
    workerConcurrency: 2,
    transcriber: "none",
    openaiApiKey: Option.some(Redacted.make(SERVER_OPENAI_KEY)),
    openaiBaseUrl: openai.url,
    webhookPollMs: 100,
    webhookRetryBaseMs: 50
  }, { workers: true, logs })
  return Layer.merge(server, Layer.succeed(Setup, { deepgram, assemblyai, openai, receiver, logs }))
}))

/** A tenant with credits and an API key, its owner signed in, and a webhook endpoint for its failures. */
const tenantWithWebhook = Effect.gen(function* () {
  const tenant = yield* tenantWithOwner
  const { receiver } = yield* Setup
  const webhook = yield* call("POST", "/v1/teams/webhooks", {
    headers: { "x-api-key": tenant.apiKey },
    body: { url: `${receiver.url}/hooks/${tenant.clientId}`, events: ["analysis.failed"] }
  })
  expect(webhook.status).toBe(201)
  return tenant
})

/** Uploads a call with a callback URL and waits for its analysis to end. */
const uploadAndSettle = (tenant: { readonly clientId: string; readonly apiKey: string }) =>
  Effect.gen(function* () {
    const { receiver } = yield* Setup
    const client = yield* HttpClient.HttpClient
    const body = new FormData()
    body.append("audio", new Blob([fixture("discovery-short.mp3")]), "discovery-short.mp3")
    body.append("callback_url", `${receiver.url}/callback/${tenant.clientId}`)
    const response = yield* client.execute(
      HttpClientRequest.post("/v1/teams/audio").pipe(HttpClientRequest.setHeader("x-api-key", tenant.apiKey), HttpClientRequest.bodyFormData(body))
    )
    expect(response.status).toBe(202)
    const callId = ((yield* response.json) as { call_id: string }).call_id
    const status = yield* settle(tenant.apiKey, callId)
    return { callId, status }
  })

/** Every surface of a failed call, as text: what callers, operators and the database see of it. */
const surfaces = (tenant: { readonly clientId: string; readonly apiKey: string; readonly session: string }, callId: string) =>
  Effect.gen(function* () {
    const { logs, receiver } = yield* Setup
    const sql = yield* SqlClient.SqlClient
    const staff = { "x-api-key": ASSISTANT_KEY }
    const q = `client_id=${tenant.clientId}`
    // both webhooks of the failure (the endpoint's and the upload's callback) have come
    const hooks = yield* receiver.waitFor(1, { accepted: true }).pipe(
      Effect.zipRight(Effect.gen(function* () {
        for (;;) {
          const mine = receiver.received.filter((r) => r.body.includes(callId))
          if (mine.length >= 2) return mine
          yield* Effect.sleep("50 millis")
        }
      })),
      Effect.timeout("30 seconds")
    )
    const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value))
    const out: Record<string, string> = {
      "GET /analysis/{id}": text((yield* get(tenant.apiKey, `/analysis/${callId}`)).body),
      "GET /v1/teams/calls/{id}": text((yield* get(tenant.apiKey, `/v1/teams/calls/${callId}`)).body),
      "portal events": text((yield* call("GET", "/v1/client-portal/events", { session: tenant.session })).body),
      "portal recent events": text((yield* call("GET", "/v1/client-portal/events/recent", { session: tenant.session })).body),
      "portal operational-trust": text((yield* call("GET", "/v1/client-portal/operational-trust", { session: tenant.session })).body),
      "portal health-kpis": text((yield* call("GET", "/v1/client-portal/health-kpis", { session: tenant.session })).body),
      "portal account-cockpit": text((yield* call("GET", "/v1/client-portal/account-cockpit", { session: tenant.session })).body),
      "assistant operational-trust": text((yield* call("GET", `/v1/internal/assistant/operational-trust?${q}`, { headers: staff })).body),
      "assistant call details": text((yield* call("GET", `/v1/internal/assistant/calls/${callId}?${q}`, { headers: staff })).body),
      "assistant call queue": text((yield* call("GET", `/v1/internal/assistant/call-queue?${q}`, { headers: staff })).body),
      "admin pipeline-health": text((yield* call("GET", "/v1/internal/admin/pipeline-health", { headers: admin })).body),
      "webhooks received": hooks.map((h) => `${h.path} ${h.body}`).join("\n"),
      "calls row": text(yield* sql`SELECT * FROM calls WHERE call_id = ${callId}`),
      "analysis_jobs row": text(yield* sql`SELECT * FROM analysis_jobs WHERE call_id = ${callId}`),
      "call_events rows": text(yield* sql`SELECT * FROM call_events WHERE call_id = ${callId}`),
      "webhook_deliveries rows": text(yield* sql`SELECT * FROM webhook_deliveries WHERE payload::text LIKE ${`%${callId}%`}`),
      "log lines": logs.join("\n")
    }
    return { out, hooks }
  })

/** The key in none of its forms on any surface; the provider's words on none but the log. */
const expectNoLeak = (key: string, out: Record<string, string>) => {
  for (const [where, text] of Object.entries(out)) {
    expect(leaksOf(key, text), `${where} leaks the key`).toEqual([])
    if (where !== "log lines") {
      expect(text, `${where} repeats the provider's words`).not.toContain(OWN_WORDS)
      expect(text, `${where} repeats the provider's words`).not.toContain("Invalid credentials")
      expect(text, `${where} repeats the provider's words`).not.toContain("Incorrect API key")
    }
  }
}

describe("a speech-to-text provider that echoes the key", () => {
  layer(withProviders, { excludeTestServices: true, timeout: 180_000 })("with echoing providers", (it) => {
    it.effect("the self-check: the forms looked for are found in the provider's answer", () =>
      Effect.sync(() => {
        for (const key of [DEEPGRAM_KEY, ASSEMBLYAI_KEY, SERVER_OPENAI_KEY]) {
          expect(leaksOf(key, echoBody(key))).toEqual(formsOf(key))
          expect(formsOf(key).length).toBeGreaterThanOrEqual(6)
        }
      }))

    it.effect("the tenant's Deepgram key, echoed on a 401, appears nowhere: answers, views, webhooks, rows, logs", () =>
      Effect.gen(function* () {
        const { deepgram, logs } = yield* Setup
        const tenant = yield* tenantWithWebhook
        const saved = yield* call("PUT", "/v1/client-portal/integrations/llm", {
          session: tenant.session,
          body: { provider: "deepgram", api_key: DEEPGRAM_KEY, base_url: deepgram.url }
        })
        expect(saved.status).toBe(200)
        const { callId, status } = yield* uploadAndSettle(tenant)
        // the attack took place: the provider got the key and echoed it
        const listened = deepgram.requests.filter((r) => r.path === "/v1/listen")
        expect(listened.length).toBeGreaterThanOrEqual(1)
        expect(listened[0]!.headers["authorization"]).toBe(`Token ${DEEPGRAM_KEY}`)

        expect(status).toMatchObject({ status: "failed", credits_charged: 0 })
        expect(status.error.code).toBe("transcription_failed")
        // the provider, the status and our reason
        expect(status.error.message).toBe("Deepgram answered the transcription request with HTTP 401: the key was refused")

        const { hooks, out } = yield* surfaces(tenant, callId)
        expect(hooks.map((h) => h.path).sort()).toEqual([`/callback/${tenant.clientId}`, `/hooks/${tenant.clientId}`])
        for (const hook of hooks) {
          expect(JSON.parse(hook.body).data).toMatchObject({ call_id: callId, error: { code: "transcription_failed", message: status.error.message } })
        }
        expect(out["portal events"]).toContain("Deepgram answered the transcription request with HTTP 401")
        expect(out["admin pipeline-health"]).toContain(callId)
        expectNoLeak(DEEPGRAM_KEY, out)
        // the operators' line keeps the provider's words, blanked
        const warning = logs.find((line) => line.includes("Deepgram transcription request failed") && line.includes(OWN_WORDS))
        expect(warning).toBeDefined()
        expect(warning).toContain("[redacted]")
      }))

    it.effect("the tenant's AssemblyAI key (spaces and reserved characters) echoed on the upload appears nowhere either", () =>
      Effect.gen(function* () {
        const { assemblyai } = yield* Setup
        const tenant = yield* tenantWithWebhook
        const saved = yield* call("PUT", "/v1/client-portal/integrations/llm", {
          session: tenant.session,
          body: { provider: "assemblyai", api_key: ASSEMBLYAI_KEY, base_url: assemblyai.url }
        })
        expect(saved.status).toBe(200)
        const { callId, status } = yield* uploadAndSettle(tenant)
        expect(assemblyai.requests.filter((r) => r.path === "/v2/upload")[0]!.headers["authorization"]).toBe(ASSEMBLYAI_KEY)
        expect(status.error).toEqual({ code: "transcription_failed", message: "AssemblyAI answered the upload with HTTP 401: the key was refused" })
        const { out } = yield* surfaces(tenant, callId)
        expectNoLeak(ASSEMBLYAI_KEY, out)
      }))

    it.effect("the server's own OpenAI key, echoed for a tenant whose flag says openai, appears nowhere either", () =>
      Effect.gen(function* () {
        const { openai } = yield* Setup
        const tenant = yield* tenantWithWebhook
        yield* setFlags(tenant.clientId, { transcriber: "openai" })
        const { callId, status } = yield* uploadAndSettle(tenant)
        expect(openai.requests.filter((r) => r.path === "/v1/audio/transcriptions")[0]!.headers["authorization"]).toBe(`Bearer ${SERVER_OPENAI_KEY}`)
        expect(status.error).toEqual({ code: "transcription_failed", message: "OpenAI answered the transcription request with HTTP 401: the key was refused" })
        const { out } = yield* surfaces(tenant, callId)
        expectNoLeak(SERVER_OPENAI_KEY, out)
      }))
  })
})
