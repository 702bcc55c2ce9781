/**
 * LLM-assisted assessments end to end, in-process: a tenant saves its speech-to-text provider
 * (Deepgram's protocol, answering with the fixture's truth) and its LLM (a local server speaking
 * OpenAI's chat completions, and Anthropic's messages, in this file) through the portal; the
 * workers transcribe each upload, run the rules, ask the LLM once with the transcript and a JSON
 * schema, verify its quotes and merge what it adds. The server answers by the model the tenant
 * named: `good-model` with structured JSON quoting the transcript of discovery-short (one item
 * quoting words never said, one objection the rules miss), `reader-model` with the same and a
 * verdict rejecting each doubtful rule finding the request lists (the LLM as a second reader),
 * `flaky-model` with 500s and then nothing at all. What the rules find is read from the same call
 * analysed without an LLM, so these tests hold while the rules change.
 */
import { METHOD_VERSION } from "@callsight/analysis"
import { CallsightApi, CreateClientRequest } from "@callsight/api-spec"
import { HttpApiClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, type Scope } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { admin, balanceOf, get, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, freshEmail, signInByMail } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"
import { type SpeechProviderServer, startDeepgram } from "./utils/SpeechProviders.js"
import { doubtfulOf } from "./utils/LocalOpenAI.js"

const DEEPGRAM_KEY = "dg-tenant-key-00000000000000000dgdg"
const LLM_KEY = "sk-llm-tenant-key-0000000000000000llmk"
const ANTHROPIC_KEY = "sk-ant-tenant-key-000000000000000antk"

const CALL = "discovery-short.mp3"
/** What the rules find in discovery-short: the competitor objection, answered with a question back. */
const COMPETITOR = "We are also looking at one other vendor."
/** A time constraint at the start of the call, which the rules do not read as an objection. */
const TIME_LIMIT = "Yes, I have about twenty minutes."
/** The reason `reader-model` gives for each rejection. */
const REASON = "Naming another vendor in passing sets no condition on buying."
/** Words nobody said in the call. */
const NEVER_SAID = "Our reps lose every deal that reaches procurement."

/** The model's answer for discovery-short: every quote from the transcript but one. */
const ANSWER = {
  objections: [
    { kind: "competitor", quote: COMPETITOR },
    { kind: "timing", quote: TIME_LIMIT }
  ],
  next_steps: [],
  pains: [{ quote: NEVER_SAID }],
  value_claims: [],
  qualification: []
}

interface Received {
  readonly path: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly json: any
}

interface LlmServer {
  readonly url: string
  readonly requests: Array<Received>
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/**
 * The local LLM: `GET /v1/models` (the key check when the integration is saved; OpenAI's bearer
 * token or Anthropic's `x-api-key`), `POST /v1/chat/completions` and `POST /v1/messages`. A wrong
 * key gets 401 echoing it, as OpenAI does, so a leak would show.
 */
const startLlm: Effect.Effect<LlmServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<LlmServer & { readonly close: () => void }>((resume) => {
    const requests: Array<Received> = []
    let flaky = 0
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "http://localhost").pathname
        const text = Buffer.concat(chunks).toString("utf8")
        const json = text === "" ? undefined : JSON.parse(text)
        requests.push({ path, headers: req.headers as Record<string, string | undefined>, json })
        const anthropic = req.headers["anthropic-version"] !== undefined
        const keyOk = anthropic ? req.headers["x-api-key"] === ANTHROPIC_KEY : req.headers.authorization === `Bearer ${LLM_KEY}`
        if (!keyOk) return send(res, 401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? req.headers["x-api-key"]}` } })
        if (req.method === "GET" && path === "/v1/models") return send(res, 200, { object: "list", data: [{ id: "good-model" }] })
        if (req.method === "POST" && path === "/v1/chat/completions") {
          if (json.model === "flaky-model") {
            // two 500s, then no answer at all
            if (flaky++ < 2) return send(res, 500, { error: { message: "the model is overloaded" } })
            return
          }
          // the reader rejects every doubtful finding the request lists, as a model reading the prompt would
          const answer = json.model === "reader-model"
            ? { ...ANSWER, verdicts: doubtfulOf(json.messages[1].content).map((d) => ({ id: d.id, verdict: "reject", reason: REASON })) }
            : ANSWER
          return send(res, 200, {
            id: "chatcmpl-1",
            object: "chat.completion",
            model: json.model,
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(answer), refusal: null } }]
          })
        }
        if (req.method === "POST" && path === "/v1/messages") {
          const tool = json.tools[0].name
          return send(res, 200, {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: json.model,
            stop_reason: "tool_use",
            content: [{ type: "tool_use", id: "toolu_1", name: tool, input: ANSWER }]
          })
        }
        send(res, 404, { error: { message: `no route ${req.method} ${path}` } })
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      })))
  }),
  (s) => Effect.sync(s.close)
)

class Providers extends Context.Tag("test/Providers")<Providers, {
  readonly deepgram: SpeechProviderServer
  readonly llm: LlmServer
  /** Every log line of the server, to search for the key. */
  readonly logs: ReadonlyArray<string>
}>() {}

const withProviders = Layer.unwrapScoped(Effect.gen(function* () {
  const deepgram = yield* startDeepgram({ apiKey: DEEPGRAM_KEY })
  const llm = yield* startLlm
  // no server-wide TRANSCRIBER and no server LLM: everything is the tenant's own
  const logs: Array<string> = []
  const server = serverWithSmtp({ workerConcurrency: 2, llmTimeoutSeconds: 5, transcriber: "none" }, { workers: true, logs })
  return Layer.merge(server, Layer.succeed(Providers, { deepgram, llm, logs }))
}))

/** A tenant with credits, its owner signed in, and its Deepgram saved; then its LLM, if any. */
const tenantWith = (llm: { readonly provider: string; readonly api_key: string; readonly model: string } | null) =>
  Effect.gen(function* () {
    const providers = yield* Providers
    const api = yield* HttpApiClient.make(CallsightApi)
    const email = freshEmail()
    const created = yield* api.extensions.createClient({
      headers: admin,
      payload: CreateClientRequest.make({ company_name: "Acme", credits: 3, plan: "growth", owner_email: email })
    })
    const session = yield* signInByMail(yield* Smtp, email)
    const save = (body: Record<string, unknown>) =>
      Effect.map(call("PUT", "/v1/client-portal/integrations/llm", { session, body }), (r) => {
        expect(r.status, JSON.stringify(r.body)).toBe(200)
      })
    yield* save({ provider: "deepgram", api_key: DEEPGRAM_KEY, base_url: providers.deepgram.url })
    if (llm !== null) yield* save({ ...llm, base_url: providers.llm.url })
    return { clientId: created.client_id, apiKey: created.api_key, session }
  })

const analyse = (apiKey: string, name: string) =>
  Effect.gen(function* () {
    const accepted = yield* upload(apiKey, fixture(name), { name })
    expect(accepted.status).toBe(202)
    const callId = accepted.body.call_id as string
    const status = yield* settle(apiKey, callId)
    const analysis = (yield* get(apiKey, `/v1/teams/calls/${callId}`)).body
    return { callId, status, analysis }
  })

const dimension = (analysis: any, name: string) => analysis.scorecard.dimensions.find((d: any) => d.dimension === name)
const effects = (analysis: any, name: string, source?: string) =>
  analysis.evidence.filter((e: any) => e.dimension === name && (source === undefined || e.source === source)).reduce((s: number, e: any) => s + e.effect, 0)

describe("LLM-assisted assessments", () => {
  // No test services: the workers, the providers and the LLM's timeout run on the real clock.
  layer(withProviders, { excludeTestServices: true })("with the tenant's LLM", (it) => {
    it.effect("the LLM's verified objection is merged (source llm) and its dimension rescored; the unverified item is dropped and counted; the report says so", () =>
      Effect.gen(function* () {
        const { llm } = yield* Providers
        // the same call without an LLM: the rules alone
        const control = yield* analyse((yield* tenantWith(null)).apiKey, CALL)
        expect(control.analysis.llm).toBeNull()
        expect(control.analysis.objections.map((o: any) => o.quote), "the rules find the competitor, not the time limit").toEqual([COMPETITOR])
        expect(control.analysis.evidence.every((e: any) => e.source === undefined)).toBe(true)

        const tenant = yield* tenantWith({ provider: "openai-compatible", api_key: LLM_KEY, model: "good-model" })
        const before = llm.requests.length
        const { callId, status, analysis } = yield* analyse(tenant.apiKey, CALL)
        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        expect(yield* balanceOf(tenant.clientId)).toBe(2)
        expect(analysis.method_version).toBe(METHOD_VERSION)

        // one request: the model, the schema in strict mode, the transcript, the key as a bearer token
        const sent = llm.requests.slice(before).filter((r) => r.path === "/v1/chat/completions")
        expect(sent).toHaveLength(1)
        const body = sent[0]!.json
        expect(sent[0]!.headers.authorization).toBe(`Bearer ${LLM_KEY}`)
        expect(body.model).toBe("good-model")
        expect(body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "call_assessment", strict: true } })
        expect(Object.keys(body.response_format.json_schema.schema.properties)).toEqual(["objections", "verdicts", "next_steps", "pains", "value_claims", "qualification", "summary"])
        const prompt = body.messages.map((m: any) => m.content).join("\n")
        for (const segment of analysis.transcript) expect(prompt).toContain(segment.text)
        expect(prompt).toContain(COMPETITOR)
        expect(prompt).toContain("MEDDPICC")

        // the rules' objection kept once, as the rules found it; the time limit added with its time and source
        expect(analysis.objections.filter((o: any) => o.source === undefined)).toEqual(control.analysis.objections)
        expect(analysis.objections.filter((o: any) => o.source === "llm")).toEqual([
          // the rep answered with a question: "What prompted you to look at call coaching tools right now?"
          { kind: "timing", at: expect.any(Number), quote: TIME_LIMIT, response: "question_back", response_pause_s: expect.any(Number), source: "llm" }
        ])
        expect(analysis.objections.find((o: any) => o.source === "llm").at).toBeCloseTo(8.42, 0)
        expect(analysis.next_steps).toEqual(control.analysis.next_steps)
        // the worker stores the summary: this model wrote none, so it is the rules', each quote said in the transcript
        expect(analysis.summary.source).toBe("rules")
        expect(analysis.summary.agreed.map((i: any) => i.kind)).toEqual(control.analysis.summary.agreed.map((i: any) => i.kind))
        for (const item of [...analysis.summary.needs, ...analysis.summary.agreed, ...analysis.summary.risks]) {
          for (const q of item.quotes) expect(analysis.transcript.some((t: any) => t.speaker === q.speaker && t.text.includes(q.quote)), q.quote).toBe(true)
        }

        // rescored by the same rules: the LLM's question back adds its points to Objection handling
        const added = effects(analysis, "objection_handling", "llm")
        expect(added).toBeGreaterThan(0)
        expect(dimension(analysis, "objection_handling").score).toBe(dimension(control.analysis, "objection_handling").score + added)
        expect(dimension(analysis, "objection_handling").score).toBe(50 + effects(analysis, "objection_handling"))
        for (const name of ["discovery", "listening", "value", "next_steps", "conversation_flow"]) {
          expect(dimension(analysis, name), name).toEqual(dimension(control.analysis, name))
        }
        expect(analysis.evidence.every((e: any) => e.source === "rules" || e.source === "llm")).toBe(true)
        // the rules' doubtful findings were listed for a verdict; this model gave none, so they stand
        expect(analysis.llm).toEqual({
          provider: "openai-compatible",
          model: "good-model",
          assisted_dimensions: ["objection_handling"],
          added_items: 1,
          dropped_items: 1,
          error: null,
          doubtful_items: doubtfulOf(body.messages[1].content).length,
          verdicts: [],
          notes: []
        })
        expect(analysis.scorecard.overall_basis).toEqual({ assessed: 6, of: 6, partial: false })

        const report = (yield* get(tenant.apiKey, `/reports/${callId}/html`)).body as string
        expect(report).toContain("LLM-assisted: <b>Objection handling</b> (openai-compatible · good-model)")
        expect(report).toContain("1 item dropped: not found in the transcript")
        expect(report).toContain(`class="src-llm"`)
        expect(report).not.toContain(NEVER_SAID)

        // the integration shows it was used, without an error
        const listed = yield* call("GET", "/v1/client-portal/integrations/llm", { session: tenant.session })
        const saved = (listed.body as any).integrations.find((i: any) => i.provider === "openai-compatible")
        expect(saved).toMatchObject({ last_error: null, last_used_at: expect.any(String) })
      }), 180_000)

    it.effect("as a second reader: the doubtful rule finding it rejects leaves the objections and the scores, and the JSON and the report keep its reason", () =>
      Effect.gen(function* () {
        const { llm } = yield* Providers
        // without an LLM nothing is judged: the rules' competitor objection stands, unmarked
        const control = yield* analyse((yield* tenantWith(null)).apiKey, CALL)
        const rules = control.analysis.objections.find((o: any) => o.quote === COMPETITOR)
        expect(rules).toBeDefined()
        expect(Object.keys(rules)).not.toContain("verdict")
        expect(Object.keys(rules)).not.toContain("source")

        const tenant = yield* tenantWith({ provider: "openai-compatible", api_key: LLM_KEY, model: "reader-model" })
        const before = llm.requests.length
        const { callId, status, analysis } = yield* analyse(tenant.apiKey, CALL)
        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        const sent = llm.requests.slice(before).filter((r) => r.path === "/v1/chat/completions")
        expect(sent).toHaveLength(1)
        // the rules are unsure of the competitor objection (the model hears little push-back in it): it is listed for a verdict
        const listed = doubtfulOf(sent[0]!.json.messages[1].content)
        expect(listed.map((d) => d.quote), "the request lists the competitor objection as doubtful").toContain(COMPETITOR)

        // rejected: out of the objections, kept in the stored JSON (read back through the API) with its reason; the time limit the LLM added stays
        expect(analysis.objections.map((o: any) => o.quote)).not.toContain(COMPETITOR)
        expect(analysis.objections.filter((o: any) => o.source === "llm").map((o: any) => o.quote)).toEqual([TIME_LIMIT])
        expect(analysis.llm).toMatchObject({
          provider: "openai-compatible",
          model: "reader-model",
          error: null,
          doubtful_items: listed.length,
          // its answer also names the competitor objection, which it rejected: not added back
          notes: [`objection "${COMPETITOR}" not added: the LLM rejected the rules' finding on the same words`]
        })
        expect(analysis.llm.verdicts).toHaveLength(listed.length)
        expect(analysis.llm.verdicts.find((v: any) => v.quote === COMPETITOR)).toEqual({
          kind: rules.kind,
          at: rules.at,
          quote: COMPETITOR,
          confidence: expect.any(Number),
          source: "rules",
          verdict: "rejected",
          reason: REASON
        })
        expect(analysis.llm.verdicts.every((v: any) => v.confidence < 0.45)).toBe(true)
        // and out of the scores: objection handling rescored without it (the LLM's added objection counts instead)
        expect(analysis.llm.assisted_dimensions).toContain("objection_handling")
        expect(dimension(analysis, "objection_handling").score).toBe(50 + effects(analysis, "objection_handling"))
        expect(effects(analysis, "objection_handling", "rules")).toBeLessThan(effects(control.analysis, "objection_handling"))

        // the report's LLM note lists the rejection, one line with its reason
        const report = (yield* get(tenant.apiKey, `/reports/${callId}/html`)).body as string
        expect(report).toContain(`The LLM rejected ${listed.length} rule finding${listed.length === 1 ? "" : "s"} the method was unsure of`)
        expect(report).toMatch(new RegExp(`<li>Rejected: <span class="quote">“${COMPETITOR.replace(/\./g, "\\.")}”</span> .*\\(Competitor, confidence 0\\.\\d\\d\\): ${REASON.replace(/\./g, "\\.")}</li>`))
      }), 180_000)

    it.effect("a failing LLM (500s, then no answer) leaves the rule-based result: the call completes with one credit and the reason", () =>
      Effect.gen(function* () {
        const { llm } = yield* Providers
        const tenant = yield* tenantWith({ provider: "openai-compatible", api_key: LLM_KEY, model: "flaky-model" })
        const before = llm.requests.length
        const started = Date.now()
        const { callId, status, analysis } = yield* analyse(tenant.apiKey, CALL)
        expect(status).toMatchObject({ status: "completed", credits_charged: 1, error: null })
        expect(yield* balanceOf(tenant.clientId)).toBe(2)
        expect(Date.now() - started).toBeGreaterThanOrEqual(5_000)
        // the first attempt and its retries (after 1 s and 2 s), the last never answered
        const sent = llm.requests.slice(before).filter((r) => r.path === "/v1/chat/completions")
        expect(sent).toHaveLength(3)
        expect(analysis.llm).toEqual({
          provider: "openai-compatible",
          model: "flaky-model",
          assisted_dimensions: [],
          added_items: 0,
          dropped_items: 0,
          error: expect.stringMatching(/did not answer the assessment request within 5s/),
          // listed for a verdict, never judged: they stand
          doubtful_items: doubtfulOf(sent[0]!.json.messages[1].content).length,
          verdicts: [],
          notes: []
        })
        expect(analysis.objections.every((o: any) => o.source === undefined)).toBe(true)
        expect(analysis.objections.map((o: any) => o.quote)).toContain(COMPETITOR)
        expect(analysis.evidence.every((e: any) => e.source === undefined)).toBe(true)
        expect(JSON.stringify(analysis)).not.toContain(LLM_KEY)
        const { logs } = yield* Providers
        expect(logs.some((l) => l.includes("retrying"))).toBe(true)
        expect(logs.join("\n")).not.toContain(LLM_KEY)
        const report = (yield* get(tenant.apiKey, `/reports/${callId}/html`)).body as string
        expect(report).toContain("gave no assessment")
        const listed = yield* call("GET", "/v1/client-portal/integrations/llm", { session: tenant.session })
        expect((listed.body as any).integrations.find((i: any) => i.provider === "openai-compatible").last_error).toMatch(/did not answer/)
      }), 120_000)

    it.effect("Anthropic's protocol: messages with the schema as a forced tool, x-api-key and anthropic-version", () =>
      Effect.gen(function* () {
        const { llm } = yield* Providers
        const tenant = yield* tenantWith({ provider: "anthropic", api_key: ANTHROPIC_KEY, model: "claude-test" })
        const before = llm.requests.length
        const { status, analysis } = yield* analyse(tenant.apiKey, CALL)
        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        const sent = llm.requests.slice(before).filter((r) => r.path === "/v1/messages")
        expect(sent).toHaveLength(1)
        expect(sent[0]!.headers["x-api-key"]).toBe(ANTHROPIC_KEY)
        expect(sent[0]!.headers["anthropic-version"]).toBe("2023-06-01")
        expect(sent[0]!.headers.authorization).toBeUndefined()
        const body = sent[0]!.json
        expect(body).toMatchObject({ model: "claude-test", tool_choice: { type: "tool", name: "call_assessment" } })
        expect(body.tools[0]).toMatchObject({ name: "call_assessment", input_schema: { type: "object" } })
        expect(body.messages[0].content).toContain(COMPETITOR)
        expect(analysis.llm).toMatchObject({ provider: "anthropic", model: "claude-test", assisted_dimensions: ["objection_handling"], dropped_items: 1, error: null })
        expect(analysis.objections.filter((o: any) => o.source === "llm").map((o: any) => o.quote)).toEqual([TIME_LIMIT])
      }), 120_000)
  })
})
