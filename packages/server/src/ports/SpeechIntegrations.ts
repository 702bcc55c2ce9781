/**
 * What a tenant chose for speech-to-text: its own provider, saved among its integrations (`PUT
 * /integrations/llm`), the transcriber of its calls before its `transcriber` runtime flag and the
 * server's default; and that flag. The integrations feature implements this port
 * (`integrations/SpeechIntegrationsLive.ts`: it holds the sealed keys); `main.ts` provides it to
 * the analysis workers.
 */
import type { ClientId } from "@callsight/api-spec"
import { Context, Data, type Effect, type Option, type Redacted } from "effect"

export type SpeechProvider = "deepgram" | "assemblyai" | "openai" | "openai-compatible"

export interface SpeechIntegration {
  readonly provider: SpeechProvider
  readonly apiKey: Redacted.Redacted<string>
  /** The integration's own base URL; null for the server's `*_BASE_URL`. */
  readonly baseUrl: string | null
  readonly model: string | null
}

/** The saved key cannot be opened (SECRETS_KEY changed without SECRETS_KEY_PREVIOUS). */
export class SpeechIntegrationUnreadable extends Data.TaggedError("SpeechIntegrationUnreadable")<{
  readonly provider: SpeechProvider
  readonly message: string
}> {}

export class SpeechIntegrations extends Context.Tag("@callsight/SpeechIntegrations")<
  SpeechIntegrations,
  {
    /** The tenant's speech-to-text integration, if it saved one. */
    readonly forTenant: (clientId: ClientId) => Effect.Effect<Option.Option<SpeechIntegration>, SpeechIntegrationUnreadable>
    /** The tenant's `transcriber` runtime flag as saved (any value; the caller checks it), if set. */
    readonly transcriberFlag: (clientId: ClientId) => Effect.Effect<Option.Option<unknown>>
  }
>() {}
