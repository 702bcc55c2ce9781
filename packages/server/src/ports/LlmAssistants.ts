/**
 * The tenant's own LLM, saved among its integrations (`PUT /integrations/llm`: OpenAI, Anthropic or
 * an OpenAI-compatible server, the providers with the `llm` capability): when there is one, the
 * analysis workers ask it to assess each call's transcript (docs/method.md, "LLM assistance"). The
 * integrations feature implements this tag (it holds the sealed keys); `main.ts` provides it to the
 * analysis workers.
 */
import type { ClientId } from "@callsight/api-spec"
import { Context, Data, type Effect, type Option, type Redacted } from "effect"

export type LlmAssistantProvider = "openai" | "anthropic" | "openai-compatible"

export interface LlmAssistant {
  readonly provider: LlmAssistantProvider
  readonly apiKey: Redacted.Redacted<string>
  /** The integration's own base URL; null for the server's `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`. */
  readonly baseUrl: string | null
  /** The integration's model; null for the server's default of the provider. */
  readonly model: string | null
}

/** The saved key cannot be opened (SECRETS_KEY changed without SECRETS_KEY_PREVIOUS). */
export class LlmAssistantUnreadable extends Data.TaggedError("LlmAssistantUnreadable")<{
  readonly provider: LlmAssistantProvider
  readonly message: string
}> {}

export class LlmAssistants extends Context.Tag("@callsight/LlmAssistants")<
  LlmAssistants,
  {
    /** The tenant's LLM integration, if it saved one (the most recently saved of several). */
    readonly forTenant: (clientId: ClientId) => Effect.Effect<Option.Option<LlmAssistant>, LlmAssistantUnreadable>
    /** Records on the integration that it was used, and how it went (`error` null: it answered). */
    readonly recordUse: (clientId: ClientId, provider: string, error: string | null) => Effect.Effect<void>
  }
>() {}
