/** The stored hash of a generated staff key (`staff_keys`), one per kind. */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import * as Rows from "../db/Rows.js"

const Kind = Schema.Literal("admin", "assistant")
const Hash = Schema.Struct({ key_hash: Schema.String })

export class StaffKeysRepo extends Effect.Service<StaffKeysRepo>()("StaffKeysRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = Rows.findOne({
      Request: Kind,
      Result: Hash,
      execute: (kind) => sql`SELECT key_hash FROM staff_keys WHERE kind = ${kind}`
    })

    // ON CONFLICT: two processes starting at once keep the first key; the loser gets none back.
    const insertIfAbsent = Rows.findOne({
      Request: Schema.Struct({ kind: Kind, prefix: Schema.String, hash: Schema.String }),
      Result: Hash,
      execute: (k) =>
        sql`INSERT INTO staff_keys (kind, prefix, key_hash) VALUES (${k.kind}, ${k.prefix}, ${k.hash})
            ON CONFLICT (kind) DO NOTHING RETURNING key_hash`
    })

    return {
      find: (kind: typeof Kind.Type) => Effect.map(find(kind), Option.map((row) => row.key_hash)),
      /** Whether this key became the kind's stored key (false: another process stored one first). */
      insertIfAbsent: (key: { kind: typeof Kind.Type; prefix: string; hash: string }) =>
        Effect.map(insertIfAbsent(key), Option.isSome)
    } as const
  })
}) {}
