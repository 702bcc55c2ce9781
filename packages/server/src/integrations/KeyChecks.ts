/**
 * Before a provider's key is stored, one cheap authenticated call tells whether the provider takes
 * it: the models list (OpenAI and compatible servers, Anthropic), the projects (Deepgram), one
 * transcript of the list (AssemblyAI). A refusal comes back as the status and a short reason of
 * ours (lib/ProviderRequests.ts `statusReason`), never the provider's words: those go to one WARN
 * log line, blanked of the key in every encoding (lib/Redact.ts).
 */
import type { LlmProvider } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Data, Duration, Effect } from "effect"
import { AppConfig } from "../config.js"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { errorDetail, statusReason } from "../lib/ProviderRequests.js"
import { redactedExcerpt } from "../lib/Redact.js"

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

/** Our reason for a provider's answer: the status and a short reason of ours, never the provider's words. */
const reasonOf = (status: number): string => `HTTP ${status}: ${statusReason(status)}`

/** A failure of our own (no answer, the connection), on one line, blanked of the key. */
const transportReason = (message: string, apiKey: string): string => redactedExcerpt(message, [apiKey], 200)

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
            : Effect.orElseSucceed(response.text, () => "").pipe(
              // the provider's words for operators only, blanked and short
              Effect.tap((text) =>
                Effect.logWarning(`${PROVIDER_NAMES[provider]} did not take the key`).pipe(
                  Effect.annotateLogs({ provider, status: response.status, detail: errorDetail(text, [apiKey]) })
                )
              ),
              // 5xx and 429 say nothing of the key: it could not be checked
              Effect.as(
                response.status >= 500 || response.status === 429
                  ? Unreachable({ reason: reasonOf(response.status) })
                  : Refused({ status: response.status, reason: statusReason(response.status) })
              )
            )
        ),
        Effect.scoped,
        Effect.timeoutFail({ duration: CHECK_TIMEOUT, onTimeout: () => new Error("no answer within 10 s") }),
        Effect.catchAll((error: { readonly message: string }) => Effect.succeed(Unreachable({ reason: transportReason(error.message, apiKey) })))
      )
    })

    return { check } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
