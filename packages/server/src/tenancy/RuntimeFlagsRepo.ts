/** The runtime flags saved per tenant (`tenant_runtime_flags`), as JSON objects. */
import { ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const FlagsRow = Schema.Struct({
  client_id: ClientId,
  flags: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  updated_at: IsoTimestamp
})
export type FlagsRow = typeof FlagsRow.Type

export class RuntimeFlagsRepo extends Effect.Service<RuntimeFlagsRepo>()("RuntimeFlagsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = Rows.findOne({
      Request: ClientId,
      Result: FlagsRow,
      execute: (clientId) => sql`SELECT client_id, flags, updated_at FROM tenant_runtime_flags WHERE client_id = ${clientId}`
    })

    const list = Rows.findAll({
      Request: Schema.Void,
      Result: FlagsRow,
      execute: () => sql`SELECT client_id, flags, updated_at FROM tenant_runtime_flags ORDER BY client_id`
    })

    const save = Rows.single({
      Request: Schema.Struct({ clientId: ClientId, flags: Schema.Record({ key: Schema.String, value: Schema.Unknown }) }),
      Result: FlagsRow,
      execute: ({ clientId, flags }) =>
        sql`INSERT INTO tenant_runtime_flags (client_id, flags) VALUES (${clientId}, ${JSON.stringify(flags)}::jsonb)
            ON CONFLICT (client_id) DO UPDATE SET flags = EXCLUDED.flags, updated_at = now()
            RETURNING client_id, flags, updated_at`
    })

    return { find, list: list(undefined), save } as const
  })
}) {}
