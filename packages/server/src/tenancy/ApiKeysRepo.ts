/** Tenant API keys, stored by SHA-256 hash only. */
import { ApiKeyInfo, ClientId, KeyId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { prepared } from "../db/Prepared.js"

/** A key as the portal shows it: by prefix, never the key. */
const KeyRow = Schema.Struct({
  ...ApiKeyInfo.fields,
  created_at: IsoTimestamp,
  last_used_at: NullableIsoTimestamp,
  revoked_at: NullableIsoTimestamp
})

export const NewKey = Schema.Struct({
  keyId: KeyId,
  clientId: ClientId,
  name: Schema.String,
  prefix: Schema.String,
  hash: Schema.String
})

const TenantKey = Schema.Struct({ tenantId: ClientId, keyId: KeyId })

export class ApiKeysRepo extends Effect.Service<ApiKeysRepo>()("ApiKeysRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`key_id, name, prefix, created_at, last_used_at, revoked_at`

    /** The live key of this hash, with its tenant. */
    const findActiveByHash = Rows.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ key_id: KeyId, client_id: ClientId }),
      // on every agent request whose key is not remembered (TenantKeys): prepared once per connection (db/Prepared.ts)
      execute: (hash) => sql`${prepared(sql)}SELECT key_id, client_id FROM api_keys WHERE key_hash = ${hash} AND revoked_at IS NULL`
    })

    // Written at most once a minute per key, so a busy key does not turn every read into a write.
    const touch = Rows.execute({
      Request: KeyId,
      execute: (keyId) =>
        sql`UPDATE api_keys SET last_used_at = now()
            WHERE key_id = ${keyId} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`
    })

    const insert = Rows.execute({
      Request: NewKey,
      execute: (key) =>
        sql`INSERT INTO api_keys (key_id, client_id, name, prefix, key_hash)
            VALUES (${key.keyId}, ${key.clientId}, ${key.name}, ${key.prefix}, ${key.hash})`
    })

    const list = Rows.findAll({
      Request: ClientId,
      Result: KeyRow,
      execute: (clientId) => sql`SELECT ${columns} FROM api_keys WHERE client_id = ${clientId} ORDER BY created_at, key_id`
    })

    const find = Rows.single({
      Request: KeyId,
      Result: KeyRow,
      execute: (keyId) => sql`SELECT ${columns} FROM api_keys WHERE key_id = ${keyId}`
    })

    /** The tenant's key, locked for a change. */
    const lock = Rows.findOne({
      Request: TenantKey,
      Result: KeyRow,
      execute: ({ keyId, tenantId }) =>
        sql`SELECT ${columns} FROM api_keys WHERE client_id = ${tenantId} AND key_id = ${keyId} FOR UPDATE`
    })

    const revoke = Rows.single({
      Request: KeyId,
      Result: KeyRow,
      execute: (keyId) => sql`UPDATE api_keys SET revoked_at = now() WHERE key_id = ${keyId} RETURNING ${columns}`
    })

    /** Revokes every live key of the tenant (its account closing); answers how many. */
    const revokeAll = Rows.single({
      Request: ClientId,
      Result: Schema.Struct({ n: Schema.Number }),
      execute: (clientId) =>
        sql`WITH revoked AS (UPDATE api_keys SET revoked_at = now() WHERE client_id = ${clientId} AND revoked_at IS NULL RETURNING 1)
            SELECT count(*)::int AS n FROM revoked`
    })

    return {
      findActiveByHash,
      touch,
      insert,
      list,
      find,
      lock,
      revoke,
      revokeAll: (clientId: ClientId) => Effect.map(revokeAll(clientId), (r) => r.n)
    } as const
  })
}) {}
