/**
 * The tenant's own speech-to-text integration transcribes its calls: saved through the portal
 * (`PUT /integrations/llm`, the key checked with the provider), it comes before the tenant's
 * `transcriber` flag and the server's TRANSCRIBER, with the tenant's key, base URL and model. The
 * providers are local servers speaking Deepgram's and AssemblyAI's protocols: one Deepgram is the
 * server's (its key), the other Deepgram and the AssemblyAI are the tenant's own accounts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { get, setFlags, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, tenantWithOwner } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { sha256, type SpeechProviderServer, startAssemblyAI, startDeepgram } from "./utils/SpeechProviders.js"

const SERVER_KEY = "dg-server-key"
const TENANT_DEEPGRAM_KEY = "dg-tenant-key-0000000000000000dgdg"
const TENANT_AAI_KEY = "aai-tenant-key-000000000000000aaaa"

class Providers extends Context.Tag("test/Providers")<Providers, {
  readonly serverDeepgram: SpeechProviderServer
  readonly tenantDeepgram: SpeechProviderServer
  readonly tenantAssemblyAI: SpeechProviderServer
}>() {}

const withProviders = Layer.unwrapScoped(Effect.gen(function* () {
  const serverDeepgram = yield* startDeepgram({ apiKey: SERVER_KEY })
  const tenantDeepgram = yield* startDeepgram({ apiKey: TENANT_DEEPGRAM_KEY })
  const tenantAssemblyAI = yield* startAssemblyAI({ apiKey: TENANT_AAI_KEY, pendingPolls: 1 })
  const server = serverWithSmtp({
    workerConcurrency: 2,
    transcriber: "deepgram",
    deepgramApiKey: Option.some(Redacted.make(SERVER_KEY)),
    deepgramBaseUrl: serverDeepgram.url
  }, { workers: true })
  return Layer.merge(server, Layer.succeed(Providers, { serverDeepgram, tenantDeepgram, tenantAssemblyAI }))
}))


const analyse = (apiKey: string, name: string) =>
  Effect.gen(function* () {
    const accepted = yield* upload(apiKey, fixture(name), { name })
    expect(accepted.status).toBe(202)
    const status = yield* settle(apiKey, accepted.body.call_id)
    const analysis = (yield* get(apiKey, `/v1/teams/calls/${accepted.body.call_id}`)).body
    return { status, analysis }
  })


const sentTo = (server: SpeechProviderServer, audio: Uint8Array) =>
  server.requests.filter((r) => r.bodySha256 === sha256(audio))

describe("the tenant's speech-to-text integration", () => {
  layer(withProviders, { excludeTestServices: true })("with its providers", (it) => {
    it.effect("AssemblyAI saved by the owner transcribes the tenant's calls with the tenant's key, before the server's Deepgram", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* tenantWithOwner
        const saved = yield* call("PUT", "/v1/client-portal/integrations/llm", {
          session: tenant.session,
          body: { provider: "assemblyai", api_key: TENANT_AAI_KEY, base_url: providers.tenantAssemblyAI.url }
        })
        expect(saved.status).toBe(200)
        expect(saved.body).toMatchObject({ provider: "assemblyai", capabilities: ["speech_to_text"], key_last4: "aaaa" })

        const audio = fixture("demo-objection.mp3")
        const { status, analysis } = yield* analyse(tenant.apiKey, "demo-objection.mp3")
        expect(status).toMatchObject({ status: "completed", credits_charged: 1 })
        expect(analysis.transcription).toMatchObject({ provider: "assemblyai" })
        expect(analysis.objections.map((o: any) => o.kind)).toEqual(["price"]) // the objection to the price (callsight-1.21's kind model read it as budget)
        const uploaded = sentTo(providers.tenantAssemblyAI, audio)
        expect(uploaded.map((r) => r.path)).toEqual(["/v2/upload"])
        expect(uploaded[0]!.headers["authorization"]).toBe(TENANT_AAI_KEY)
        expect(sentTo(providers.serverDeepgram, audio)).toEqual([])
      }))

    it.effect("the integration comes before the tenant's flag; removed, the flag and the server default are back", () =>
      Effect.gen(function* () {
        const providers = yield* Providers
        const tenant = yield* tenantWithOwner
        yield* setFlags(tenant.clientId, { transcriber: "none" })
        const saved = yield* call("PUT", "/v1/client-portal/integrations/llm", {
          session: tenant.session,
          body: { provider: "deepgram", api_key: TENANT_DEEPGRAM_KEY, base_url: providers.tenantDeepgram.url, model: "nova-2" }
        })
        expect(saved.status).toBe(200)

        const audio = fixture("discovery-short.mp3")
        const first = yield* analyse(tenant.apiKey, "discovery-short.mp3")
        expect(first.analysis.transcription).toMatchObject({ provider: "deepgram", model: "nova-2" })
        const listened = sentTo(providers.tenantDeepgram, audio)
        expect(listened.length).toBe(1)
        expect(listened[0]!.headers["authorization"]).toBe(`Token ${TENANT_DEEPGRAM_KEY}`)
        expect(listened[0]!.query["model"]).toBe("nova-2")

        // removed: the tenant's flag (none) decides again, and the server's Deepgram stays unused
        expect((yield* call("DELETE", "/v1/client-portal/integrations/llm/deepgram", { session: tenant.session })).status).toBe(200)
        const second = yield* analyse(tenant.apiKey, "discovery-short.mp3")
        expect(second.status).toMatchObject({ status: "completed" })
        expect(second.analysis.transcription).toBeNull()
        expect(sentTo(providers.tenantDeepgram, audio).length).toBe(1)

        // the flag cleared: the server's default provider with the server's key
        yield* setFlags(tenant.clientId, {})
        const third = yield* analyse(tenant.apiKey, "discovery-short.mp3")
        expect(third.analysis.transcription).toMatchObject({ provider: "deepgram" })
        const serverSide = sentTo(providers.serverDeepgram, audio)
        expect(serverSide.at(-1)!.headers["authorization"]).toBe(`Token ${SERVER_KEY}`)
      }))
  })
})
