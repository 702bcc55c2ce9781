/**
 * The staff credentials: the admin key and the assistant key. `ADMIN_API_KEY` wins; without it,
 * the first start generates an admin key, stores its hash and prints the key once (development).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import { AppConfig } from "../config.js"
import { digestsEqual, newSecret, secretPrefix, sha256Hex } from "../lib/Ids.js"

export type StaffKind = "admin" | "assistant"

export class StaffKeys extends Effect.Service<StaffKeys>()("StaffKeys", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient

    const storedAdminHash = Effect.gen(function* () {
      const rows = yield* sql<{ key_hash: string }>`SELECT key_hash FROM staff_keys WHERE kind = 'admin'`
      if (rows.length > 0) return rows[0].key_hash
      const key = newSecret("csa")
      const hash = sha256Hex(key)
      // ON CONFLICT: two processes starting at once keep the first key; the loser reads it back.
      const inserted = yield* sql<{ key_hash: string }>`
        INSERT INTO staff_keys (kind, prefix, key_hash) VALUES ('admin', ${secretPrefix(key)}, ${hash})
        ON CONFLICT (kind) DO NOTHING RETURNING key_hash`
      if (inserted.length === 0) {
        const again = yield* sql<{ key_hash: string }>`SELECT key_hash FROM staff_keys WHERE kind = 'admin'`
        return again[0].key_hash
      }
      yield* Effect.logWarning(
        `ADMIN_API_KEY is not set: generated an admin key, shown this once: ${key} ` +
          "(only its hash is stored; set ADMIN_API_KEY in production)"
      )
      return hash
    })

    const adminHash = yield* Option.match(config.adminApiKey, {
      onSome: (key) => Effect.succeed(sha256Hex(Redacted.value(key))),
      onNone: () => storedAdminHash
    })
    const assistantHash = Option.map(config.assistantApiKey, (key) => sha256Hex(Redacted.value(key)))

    /** Which staff kind a presented key is, if any. */
    const identify = (key: string): Option.Option<StaffKind> => {
      const hash = sha256Hex(key)
      if (digestsEqual(hash, adminHash)) return Option.some("admin")
      if (Option.isSome(assistantHash) && digestsEqual(hash, assistantHash.value)) return Option.some("assistant")
      return Option.none()
    }

    return { identify } as const
  })
}) {}
