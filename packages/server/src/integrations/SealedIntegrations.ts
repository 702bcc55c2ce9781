/**
 * A tenant's saved speech-to-text or LLM integration with its key opened from its seal: what
 * `SpeechIntegrationsLive.ts` and `LlmAssistantsLive.ts` answer the analysis workers.
 */
import type { ClientId } from "@callsight/api-spec"
import { Effect, Option, Redacted } from "effect"
import type { SecretUnreadable, Secrets } from "../tenancy/Secrets.js"

interface SealedRow<P> {
  readonly provider: P
  readonly sealed_key: string
  readonly base_url: string | null
  readonly model: string | null
}

/** The tenant's saved integration that `find` picks, its key opened; `unreadable` when no key opens it. */
export const opened = <P extends string, E>(
  secrets: Secrets,
  find: (clientId: ClientId) => Effect.Effect<Option.Option<SealedRow<P>>, unknown>,
  unreadable: (provider: P, error: SecretUnreadable) => E
) =>
(clientId: ClientId) =>
  Effect.gen(function* () {
    const saved = yield* Effect.orDie(find(clientId))
    if (Option.isNone(saved)) return Option.none()
    const row = saved.value
    const key = yield* secrets.decrypt(row.sealed_key).pipe(Effect.mapError((e) => unreadable(row.provider, e)))
    return Option.some({ provider: row.provider, apiKey: Redacted.make(key), baseUrl: row.base_url, model: row.model })
  })
