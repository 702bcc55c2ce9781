/**
 * The tenant's API keys from the portal (docs/domain.md extensions): listed by prefix, created with the
 * key shown once (stored as SHA-256 only), revoked. Owners and admins only; each change has its
 * audit row, naming the key by id and prefix, never the key itself.
 */
import { type ClientId, type CreateApiKeyRequest, KeyId, NotFound } from "@callsight/api-spec"
import { Effect } from "effect"
import { Transactions } from "../db/Transactions.js"
import { newId, newSecret, secretPrefix, sha256Hex } from "../lib/Ids.js"
import { ApiKeysRepo } from "../tenancy/ApiKeysRepo.js"
import { TenantKeys } from "../tenancy/TenantKeys.js"
import { AuditLog, changed, unchanged } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"

export class ApiKeys extends Effect.Service<ApiKeys>()("ApiKeys", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* ApiKeysRepo
    const audit = yield* AuditLog
    const tenantKeys = yield* TenantKeys

    const list = Effect.fn("ApiKeys.list")(function* (clientId: ClientId) {
      return { keys: yield* repo.list(clientId) }
    }, Effect.orDie)

    const create = Effect.fn("ApiKeys.create")(function* (caller: Caller, req: CreateApiKeyRequest) {
      const apiKey = newSecret("csk")
      const keyId = KeyId.make(newId("key"))
      const prefix = secretPrefix(apiKey)
      const key = yield* transactions.run(
        Effect.gen(function* () {
          yield* repo.insert({ keyId, clientId: caller.clientId, name: req.name, prefix, hash: sha256Hex(apiKey) })
          yield* audit.record(caller.clientId, caller.actor, {
            action: "api_key.created",
            targetType: "api_key",
            targetId: keyId,
            metadata: { name: req.name, prefix }
          })
          return yield* repo.find(keyId)
        })
      )
      return { ...key, api_key: apiKey }
    }, Effect.orDie)

    /** Revokes the key (refused from the next request on); revoking a revoked key answers it as it is. */
    const revoke = Effect.fn("ApiKeys.revoke")((caller: Caller, keyId: KeyId) =>
      audit.change({
        clientId: caller.clientId,
        actor: caller.actor,
        lock: repo.lock({ tenantId: caller.clientId, keyId }),
        notFound: () => new NotFound({ message: `no API key ${keyId}` }),
        apply: (key) =>
          key.revoked_at !== null
            ? Effect.succeed(unchanged(key))
            : Effect.map(repo.revoke(keyId), (revoked) =>
              changed(revoked, {
                action: "api_key.revoked",
                targetType: "api_key",
                targetId: keyId,
                metadata: { name: key.name, prefix: key.prefix }
              }))
      }).pipe(Effect.tap(() => tenantKeys.forget)))

    return { list, create, revoke } as const
  }),
  dependencies: [ApiKeysRepo.Default, AuditLog.Default, Transactions.Default, TenantKeys.Default]
}) {}
