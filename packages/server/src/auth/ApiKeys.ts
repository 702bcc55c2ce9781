/**
 * The tenant's API keys from the portal (DOMAIN.md extensions): listed by prefix, created with the
 * key shown once (stored as SHA-256 only), revoked. Owners and admins only; each change has its
 * audit row, naming the key by id and prefix, never the key itself.
 */
import { type ApiKeyInfo, type CreateApiKeyRequest, NotFound } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { newId, newSecret, secretPrefix, sha256Hex } from "../lib/Ids.js"
import { AuditLog } from "../portal/AuditLog.js"
import type { Caller } from "../portal/Caller.js"
import { ApiKeysRepo } from "./ApiKeysRepo.js"

interface KeyRow {
  readonly key_id: string
  readonly name: string
  readonly prefix: string
  readonly created_at: Date
  readonly last_used_at: Date | null
  readonly revoked_at: Date | null
}

const view = (r: KeyRow): typeof ApiKeyInfo.Type => ({
  ...r,
  created_at: r.created_at.toISOString(),
  last_used_at: r.last_used_at?.toISOString() ?? null,
  revoked_at: r.revoked_at?.toISOString() ?? null
})

export class ApiKeys extends Effect.Service<ApiKeys>()("ApiKeys", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ApiKeysRepo
    const audit = yield* AuditLog

    const columns = sql`key_id, name, prefix, created_at, last_used_at, revoked_at`

    const list = Effect.fn("ApiKeys.list")(function* (clientId: string) {
      const rows = yield* sql<KeyRow>`SELECT ${columns} FROM api_keys WHERE client_id = ${clientId} ORDER BY created_at, key_id`
      return { keys: rows.map(view) }
    }, Effect.orDie)

    const create = Effect.fn("ApiKeys.create")(function* (caller: Caller, req: CreateApiKeyRequest) {
      const clientId = caller.user.clientId
      const apiKey = newSecret("csk")
      const keyId = newId("key")
      const row = yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* repo.insert({ keyId, clientId, name: req.name, prefix: secretPrefix(apiKey), hash: sha256Hex(apiKey) })
          yield* audit.record(clientId, caller.actor, {
            action: "api_key.created",
            targetType: "api_key",
            targetId: keyId,
            metadata: { name: req.name, prefix: secretPrefix(apiKey) }
          })
          const [row] = yield* sql<KeyRow>`SELECT ${columns} FROM api_keys WHERE key_id = ${keyId}`
          return row!
        })
      )
      return { ...view(row), api_key: apiKey }
    }, Effect.orDie)

    /** Revokes the key; revoking a revoked key answers it as it is. */
    const revoke = Effect.fn("ApiKeys.revoke")(function* (caller: Caller, keyId: string) {
      const clientId = caller.user.clientId
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const [key] = yield* sql<KeyRow>`SELECT ${columns} FROM api_keys WHERE client_id = ${clientId} AND key_id = ${keyId} FOR UPDATE`
          if (key === undefined) return yield* new NotFound({ message: `no API key ${keyId}` })
          if (key.revoked_at !== null) return view(key)
          const [row] = yield* sql<KeyRow>`UPDATE api_keys SET revoked_at = now() WHERE key_id = ${keyId} RETURNING ${columns}`
          yield* audit.record(clientId, caller.actor, {
            action: "api_key.revoked",
            targetType: "api_key",
            targetId: keyId,
            metadata: { name: key.name, prefix: key.prefix }
          })
          return view(row!)
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    return { list, create, revoke } as const
  }),
  dependencies: [ApiKeysRepo.Default, AuditLog.Default]
}) {}
