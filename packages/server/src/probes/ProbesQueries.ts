/** What the database server says of its connections, for `/health/db`. */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"

export class ProbesQueries extends Effect.Service<ProbesQueries>()("ProbesQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Connections of the whole server by state: the cap applies to all of them, not one database's. */
    const connectionsByState = Rows.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ state: Schema.NullOr(Schema.String), n: Schema.Number }),
      execute: () =>
        sql`SELECT state, count(*)::int AS n FROM pg_stat_activity
            WHERE backend_type = 'client backend' GROUP BY state`
    })

    return { connectionsByState: connectionsByState(undefined) } as const
  })
}) {}
