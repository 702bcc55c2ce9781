/**
 * The tenant's LLM and speech-to-text providers (`/v1/client-portal/integrations/llm`), against a
 * local server answering each provider's key-checking call as the provider documents it (OpenAI
 * and compatible servers: `GET /v1/models` with a bearer token; Anthropic: `GET /v1/models` with
 * `x-api-key` and `anthropic-version`; Deepgram: `GET /v1/projects` with `Token`; AssemblyAI:
 * `GET /v2/transcript?limit=1` with the key as `authorization`), refusing any other key the way
 * each provider does, echoing it as OpenAI does, so that a leak would show.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, type Scope } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

const GOOD = "sk-good-key-0000000000000000000000000000wxyz"
const BAD = "sk-bad-key-1111111111111111111111111111qrst"

/** Who each path belongs to, and whether the request carries the good key the provider's way. */
const accepts = (req: IncomingMessage): { readonly provider: string; readonly ok: boolean; readonly body: unknown } | undefined => {
  const url = new URL(req.url ?? "/", "http://localhost")
  const h = req.headers
  if (url.pathname === "/v1/models" && h["anthropic-version"] !== undefined) {
    return h["x-api-key"] === GOOD
      ? { provider: "anthropic", ok: true, body: { data: [{ id: "claude", type: "model" }] } }
      : { provider: "anthropic", ok: false, body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } }
  }
  if (url.pathname === "/v1/models") {
    return h.authorization === `Bearer ${GOOD}`
      ? { provider: "openai", ok: true, body: { object: "list", data: [{ id: "gpt-4o", object: "model" }] } }
      : {
        provider: "openai",
        ok: false,
        body: { error: { message: `Incorrect API key provided: ${(h.authorization ?? "").replace("Bearer ", "")}.`, type: "invalid_request_error" } }
      }
  }
  if (url.pathname === "/v1/projects") {
    return h.authorization === `Token ${GOOD}`
      ? { provider: "deepgram", ok: true, body: { projects: [{ project_id: "p1", name: "Acme" }] } }
      : { provider: "deepgram", ok: false, body: { err_code: "INVALID_AUTH", err_msg: "Invalid credentials." } }
  }
  if (url.pathname === "/v2/transcript" && url.searchParams.get("limit") === "1") {
    return h.authorization === GOOD
      ? { provider: "assemblyai", ok: true, body: { page_details: { limit: 1 }, transcripts: [] } }
      : { provider: "assemblyai", ok: false, body: { error: "Authentication error, API token missing/invalid" } }
  }
  return undefined
}

/** The local provider server, closed with the scope; it records the requests it got. */
const startProviders: Effect.Effect<{ readonly url: string; readonly seen: Array<string>; readonly close: () => void }, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly seen: Array<string>; readonly close: () => void }>((resume) => {
    const seen: Array<string> = []
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const answer = accepts(req)
      seen.push(`${req.method} ${req.url}`)
      res.writeHead(answer === undefined ? 404 : answer.ok ? 200 : 401, { "content-type": "application/json" })
      res.end(JSON.stringify(answer?.body ?? { error: "not found" }))
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() })))
  }),
  (s) => Effect.sync(s.close)
)

const LLM = "/v1/client-portal/integrations/llm"

class Providers extends Context.Tag("test/Providers")<Providers, { readonly url: string; readonly seen: Array<string> }>() {}

const TestLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const providers = yield* startProviders
    const urls = { openaiBaseUrl: providers.url, anthropicBaseUrl: providers.url, deepgramBaseUrl: providers.url, assemblyaiBaseUrl: providers.url }
    return Layer.merge(serverWithSmtp(urls), Layer.succeed(Providers, providers))
  })
)

/** Every place a secret could leak to: the answer, the stored rows, the audit rows. */
const leaks = (secret: string, ...answers: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const stored = yield* sql`SELECT * FROM llm_integrations`
    const audit = yield* sql`SELECT * FROM audit_logs`
    return JSON.stringify([answers, stored, audit]).includes(secret)
  }).pipe(Effect.orDie)

layer(TestLayer, { excludeTestServices: true })("LLM and speech-to-text integrations", (it) => {
  it.effect("an owner saves each provider after the provider took the key; the list shows the last four characters only", () =>
    Effect.gen(function* () {
      const { session } = yield* newTenant()
      for (const provider of ["openai", "anthropic", "deepgram", "assemblyai"]) {
        const saved = yield* call("PUT", LLM, { session, body: { provider, api_key: GOOD, model: provider === "openai" ? "gpt-4o" : undefined } })
        expect(saved.status, JSON.stringify(saved.body)).toBe(200)
        expect(saved.body).toMatchObject({ provider, key_last4: "wxyz", last_error: null, last_used_at: null })
      }
      const list = yield* call("GET", LLM, { session })
      expect(list.body.integrations.map((i: any) => [i.provider, i.capabilities])).toEqual([
        ["anthropic", ["llm"]],
        ["assemblyai", ["speech_to_text"]],
        ["deepgram", ["speech_to_text"]],
        ["openai", ["llm", "speech_to_text"]]
      ])
      expect(list.body.integrations.find((i: any) => i.provider === "openai")).toMatchObject({ model: "gpt-4o", base_url: null })
      expect(yield* leaks(GOOD, list.body)).toBe(false)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* Effect.orDie(sql<{ sealed_key: string }>`SELECT sealed_key FROM llm_integrations WHERE provider = 'openai' LIMIT 1`)
      expect(row!.sealed_key).toMatch(/^v1\./)
      // the account's views list them
      const cockpit = yield* call("GET", "/v1/client-portal/account-cockpit", { session })
      expect(cockpit.body.integrations.llm).toEqual(["anthropic", "assemblyai", "deepgram", "openai"])
      const kpis = yield* call("GET", "/v1/client-portal/health-kpis", { session })
      expect(kpis.body.integrations.find((i: any) => i.integration === "llm")).toMatchObject({
        connected: true,
        provider: "anthropic, assemblyai, deepgram, openai",
        last_error: null
      })
    }))

  it.effect("a key the provider refuses is 422 on api_key with the status and our reason, never the provider's words nor the key, and nothing is saved", () =>
    Effect.gen(function* () {
      const { session } = yield* newTenant()
      const refused = yield* call("PUT", LLM, { session, body: { provider: "openai", api_key: BAD } })
      expect(refused.status).toBe(422)
      expect(refused.body.detail).toEqual([{
        loc: ["body", "api_key"],
        msg: "OpenAI did not accept the key (HTTP 401: the key was refused); nothing was saved",
        type: "value_error"
      }])
      // the provider echoed the key in its answer: neither its words nor the key come back
      expect(JSON.stringify(refused.body)).not.toContain("Incorrect API key")
      const deepgram = yield* call("PUT", LLM, { session, body: { provider: "deepgram", api_key: BAD } })
      expect(deepgram.body.detail[0].msg).toBe("Deepgram did not accept the key (HTTP 401: the key was refused); nothing was saved")
      expect((yield* call("GET", LLM, { session })).body.integrations).toEqual([])
      expect(yield* leaks(BAD, refused.body, deepgram.body)).toBe(false)
    }))

  it.effect("openai-compatible needs its base URL, is checked there, and keeps it; a provider out of reach is 422, nothing saved", () =>
    Effect.gen(function* () {
      const providers = yield* Providers
      const { session } = yield* newTenant()
      const missing = yield* call("PUT", LLM, { session, body: { provider: "openai-compatible", api_key: GOOD } })
      expect(missing.status).toBe(422)
      expect(missing.body.detail[0].loc).toEqual(["body", "base_url"])
      const before = providers.seen.length
      const saved = yield* call("PUT", LLM, { session, body: { provider: "openai-compatible", api_key: GOOD, base_url: `${providers.url}/v1` } })
      expect(saved.status).toBe(200)
      expect(saved.body).toMatchObject({ base_url: `${providers.url}/v1`, capabilities: ["llm", "speech_to_text"] })
      expect(providers.seen.slice(before)).toEqual(["GET /v1/models"])
      const down = yield* call("PUT", LLM, { session, body: { provider: "anthropic", api_key: GOOD, base_url: "http://127.0.0.1:9" } })
      expect(down.status).toBe(422)
      expect(down.body.detail).toEqual([{ loc: ["body", "base_url"], msg: expect.stringContaining("Anthropic could not be reached to check the key"), type: "value_error" }])
      expect((yield* call("GET", LLM, { session })).body.integrations.map((i: any) => i.provider)).toEqual(["openai-compatible"])
    }))

  it.effect("saving again replaces key and model; removing leaves nothing; both have their audit rows, without the key", () =>
    Effect.gen(function* () {
      const { clientId, session } = yield* newTenant()
      yield* call("PUT", LLM, { session, body: { provider: "openai", api_key: GOOD, model: "gpt-4o" } })
      const again = yield* call("PUT", LLM, { session, body: { provider: "openai", api_key: GOOD, model: "gpt-4.1" } })
      expect(again.body.model).toBe("gpt-4.1")
      expect((yield* call("GET", LLM, { session })).body.integrations).toHaveLength(1)
      const removed = yield* call("DELETE", `${LLM}/openai`, { session })
      expect(removed.status).toBe(200)
      expect(removed.body).toMatchObject({ provider: "openai", removed: true, removed_at: expect.any(String) })
      expect((yield* call("DELETE", `${LLM}/openai`, { session })).status).toBe(404)
      expect((yield* call("GET", LLM, { session })).body.integrations).toEqual([])
      const sql = yield* SqlClient.SqlClient
      const actions = yield* Effect.orDie(sql<{ action: string; metadata: unknown }>`
        SELECT action, metadata FROM audit_logs WHERE client_id = ${clientId} AND action LIKE 'llm_integration.%' ORDER BY at, log_id`)
      expect(actions.map((a) => a.action)).toEqual(["llm_integration.saved", "llm_integration.saved", "llm_integration.removed"])
      expect(actions[1]!.metadata).toEqual({ provider: "openai", model: "gpt-4.1", base_url: null })
      expect(yield* leaks(GOOD)).toBe(false)
    }))

  it.effect("members are 403; another tenant sees none of them and cannot remove them (404)", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const { clientId, session } = yield* newTenant()
      yield* call("PUT", LLM, { session, body: { provider: "deepgram", api_key: GOOD } })
      const member = yield* memberSession(smtp, clientId, freshEmail("member"))
      expect((yield* call("GET", LLM, { session: member })).status).toBe(403)
      expect((yield* call("PUT", LLM, { session: member, body: { provider: "openai", api_key: GOOD } })).status).toBe(403)
      const other = yield* newTenant()
      expect((yield* call("GET", LLM, { session: other.session })).body.integrations).toEqual([])
      expect((yield* call("DELETE", `${LLM}/deepgram`, { session: other.session })).status).toBe(404)
      expect((yield* call("GET", LLM, { session })).body.integrations.map((i: any) => i.provider)).toEqual(["deepgram"])
    }))
})
