/**
 * Before a provider's key is stored, one cheap authenticated call tells whether the provider takes
 * it: the models list (OpenAI and compatible servers, Anthropic), the projects (Deepgram), one
 * transcript of the list (AssemblyAI). The provider's own words come back when it refuses, with
 * the key itself blanked out should the provider echo it.
 */
import type { LlmProvider } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { Data, Duration, Effect } from "effect"
import { AppConfig } from "../config.js"

export type KeyCheck = Data.TaggedEnum<{
  Accepted: {}
  /** The provider answered and refused (4xx): the key, or the base URL, is wrong. */
  Refused: { readonly status: number; readonly reason: string }
  /** No answer, or a 5xx: the key could not be checked. */
  Unreachable: { readonly reason: string }
}>
const { Accepted, Refused, Unreachable } = Data.taggedEnum<KeyCheck>()

export const PROVIDER_NAMES: Record<LlmProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  deepgram: "Deepgram",
  assemblyai: "AssemblyAI",
  "openai-compatible": "the OpenAI-compatible server"
}

const CHECK_TIMEOUT = Duration.seconds(10)

const trim = (url: string) => url.replace(/\/+$/, "")
/** `…/v1/models` whether the base URL ends in `/v1` or not (as OpenAI-compatible servers are given). */
const openAiModels = (base: string) => (trim(base).endsWith("/v1") ? `${trim(base)}/models` : `${trim(base)}/v1/models`)

/** The provider's own words for a refusal, from the usual error shapes, short, without the key. */
const reasonOf = (text: string, apiKey: string): string => {
  let reason = text.trim()
  try {
    const body = JSON.parse(text) as Record<string, unknown> | null
    const error = body?.["error"]
    const candidates = [
      typeof error === "object" && error !== null ? (error as Record<string, unknown>)["message"] : error,
      body?.["message"],
      body?.["err_msg"],
      body?.["detail"]
    ]
    const found = candidates.find((c): c is string => typeof c === "string" && c !== "")
    if (found !== undefined) reason = found
  } catch {
    // not JSON: the text itself
  }
  reason = reason.split(apiKey).join("[the key]").replace(/\s+/g, " ")
  return reason.length > 200 ? `${reason.slice(0, 200)}…` : reason
}

export class KeyChecks extends Effect.Service<KeyChecks>()("KeyChecks", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const client = yield* HttpClient.HttpClient

    const requestFor = (provider: LlmProvider, apiKey: string, baseUrl: string | null): HttpClientRequest.HttpClientRequest => {
      switch (provider) {
        case "openai":
        case "openai-compatible":
          return HttpClientRequest.get(openAiModels(baseUrl ?? config.openaiBaseUrl)).pipe(HttpClientRequest.bearerToken(apiKey))
        case "anthropic":
          return HttpClientRequest.get(`${trim(baseUrl ?? config.anthropicBaseUrl)}/v1/models`).pipe(
            HttpClientRequest.setHeaders({ "x-api-key": apiKey, "anthropic-version": "2023-06-01" })
          )
        case "deepgram":
          return HttpClientRequest.get(`${trim(baseUrl ?? config.deepgramBaseUrl)}/v1/projects`).pipe(
            HttpClientRequest.setHeader("authorization", `Token ${apiKey}`)
          )
        case "assemblyai":
          return HttpClientRequest.get(`${trim(baseUrl ?? config.assemblyaiBaseUrl)}/v2/transcript`).pipe(
            HttpClientRequest.setUrlParam("limit", "1"),
            HttpClientRequest.setHeader("authorization", apiKey)
          )
      }
    }

    /** Whether `provider` takes `apiKey` (at `baseUrl`, else the configured one). */
    const check = Effect.fn("KeyChecks.check")(function* (provider: LlmProvider, apiKey: string, baseUrl: string | null) {
      const request = requestFor(provider, apiKey, baseUrl)
      return yield* client.execute(request).pipe(
        Effect.flatMap((response): Effect.Effect<KeyCheck> =>
          response.status >= 200 && response.status < 300
            ? Effect.succeed(Accepted())
            : Effect.map(Effect.orElseSucceed(response.text, () => ""), (text) =>
              response.status >= 500
                ? Unreachable({ reason: `HTTP ${response.status}: ${reasonOf(text, apiKey)}` })
                : Refused({ status: response.status, reason: reasonOf(text, apiKey) || `HTTP ${response.status}` }))
        ),
        Effect.scoped,
        Effect.timeoutFail({ duration: CHECK_TIMEOUT, onTimeout: () => new Error("no answer within 10 s") }),
        Effect.catchAll((error: { readonly message: string }) => Effect.succeed(Unreachable({ reason: reasonOf(error.message, apiKey) })))
      )
    })

    return { check } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
