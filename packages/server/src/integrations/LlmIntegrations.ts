/**
 * The tenant's LLM and speech-to-text providers (docs/domain.md, "Integrations"): one per provider,
 * saved whole, the key checked with the provider before it is stored (sealed by Secrets) and never
 * shown again but for its last four characters. Owners and admins manage them; every change has
 * its audit row, which names the provider, never the key.
 */
import {
  type LlmProvider,
  NotFound,
  type UpsertLlmRequest,
  ValidationFailed
} from "@callsight/api-spec"
import { Effect } from "effect"
import { Outbound } from "../lib/Outbound.js"
import { AuditLog, changed } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { last4, Secrets } from "../tenancy/Secrets.js"
import { Transactions } from "../db/Transactions.js"
import { KeyChecks, PROVIDER_NAMES } from "./KeyChecks.js"
import { type IntegrationRow, LlmIntegrationsRepo } from "./LlmIntegrationsRepo.js"
import type { ClientId } from "@callsight/api-spec"

/** What each provider is used for. */
const CAPABILITIES: Record<LlmProvider, ReadonlyArray<"llm" | "speech_to_text">> = {
  openai: ["llm", "speech_to_text"],
  anthropic: ["llm"],
  deepgram: ["speech_to_text"],
  assemblyai: ["speech_to_text"],
  "openai-compatible": ["llm", "speech_to_text"]
}

const view = (row: IntegrationRow) => ({ ...row, capabilities: CAPABILITIES[row.provider] })

const invalid = (field: string, msg: string) => new ValidationFailed({ detail: [{ loc: ["body", field], msg, type: "value_error" }] })

export class LlmIntegrations extends Effect.Service<LlmIntegrations>()("LlmIntegrations", {
  effect: Effect.gen(function* () {
    const repo = yield* LlmIntegrationsRepo
    const secrets = yield* Secrets
    const checks = yield* KeyChecks
    const audit = yield* AuditLog
    const transactions = yield* Transactions
    const outbound = yield* Outbound

    const list = Effect.fn("LlmIntegrations.list")(function* (clientId: ClientId) {
      return { integrations: (yield* repo.list(clientId)).map(view) }
    }, Effect.orDie)

    /** Checks the key with the provider, then saves the integration (its key sealed). */
    const upsert = Effect.fn("LlmIntegrations.upsert")(function* (caller: Caller, req: UpsertLlmRequest) {
      const baseUrl = req.base_url ?? null
      if (req.provider === "openai-compatible" && baseUrl === null) {
        return yield* invalid("base_url", "required for openai-compatible: the server's API base URL")
      }
      // A URL the tenant gives is requested at once, and later by the worker: no internal address (lib/Outbound.ts).
      if (baseUrl !== null) yield* outbound.checkBaseUrl(baseUrl).pipe(Effect.mapError((refusal) => invalid("base_url", refusal.reason)))
      const name = PROVIDER_NAMES[req.provider]
      const checked = yield* checks.check(req.provider, req.api_key, baseUrl)
      if (checked._tag === "Refused") {
        return yield* invalid("api_key", `${name} did not accept the key (HTTP ${checked.status}: ${checked.reason}); nothing was saved`)
      }
      // Not verified is not saved: the caller fixes the base URL, or tries again when the provider answers.
      if (checked._tag === "Unreachable") {
        return yield* invalid(
          baseUrl === null ? "provider" : "base_url",
          `${name} could not be reached to check the key (${checked.reason}); nothing was saved`
        )
      }
      const row = yield* transactions.run(
        Effect.gen(function* () {
          const saved = yield* repo.save({
            clientId: caller.clientId,
            provider: req.provider,
            sealedKey: secrets.encrypt(req.api_key),
            keyLast4: last4(req.api_key),
            model: req.model ?? null,
            baseUrl
          })
          yield* audit.record(caller.clientId, caller.actor, {
            action: "llm_integration.saved",
            targetType: "integration",
            targetId: req.provider,
            metadata: { provider: req.provider, model: req.model ?? null, base_url: baseUrl }
          })
          return saved
        })
      ).pipe(Effect.orDie)
      return view(row)
    })

    const remove = Effect.fn("LlmIntegrations.remove")((caller: Caller, provider: string) =>
      audit.change({
        clientId: caller.clientId,
        actor: caller.actor,
        // the row goes at once: the audit row is written in the same transaction
        lock: repo.remove(caller.clientId, provider),
        notFound: () => new NotFound({ message: `no ${provider} integration` }),
        apply: (removed) =>
          Effect.succeed(changed({ provider: removed.provider, removed: true as const, removed_at: removed.removed_at }, {
            action: "llm_integration.removed",
            targetType: "integration",
            targetId: removed.provider,
            metadata: { provider: removed.provider }
          }))
      }))

    return { list, upsert, remove } as const
  }),
  dependencies: [LlmIntegrationsRepo.Default, Secrets.Default, KeyChecks.Default, AuditLog.Default, Transactions.Default, Outbound.Default]
}) {}
