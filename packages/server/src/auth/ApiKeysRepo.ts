/** Tenant API keys, stored by SHA-256 hash only. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"

const TenantKeyRow = Schema.Struct({
  key_id: Schema.String,
  client_id: Schema.String,
  last_used_at: Schema.NullOr(Schema.DateFromSelf)
})

export class ApiKeysRepo extends Effect.Service<ApiKeysRepo>()("ApiKeysRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findActiveByHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: TenantKeyRow,
      execute: (hash) =>
        sql`SELECT key_id, client_id, last_used_at FROM api_keys WHERE key_hash = ${hash} AND revoked_at IS NULL`
    })

    // Written at most once a minute per key, so a busy key does not turn every read into a write.
    const touch = (keyId: string) =>
      sql`UPDATE api_keys SET last_used_at = now()
          WHERE key_id = ${keyId} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`

    const insert = (key: { keyId: string; clientId: string; name: string; prefix: string; hash: string }) =>
      sql`INSERT INTO api_keys (key_id, client_id, name, prefix, key_hash)
          VALUES (${key.keyId}, ${key.clientId}, ${key.name}, ${key.prefix}, ${key.hash})`

    return { findActiveByHash, touch, insert } as const
  })
}) {}
