/**
 * Transactions for services. SQL lives in repositories, so services do not hold a `SqlClient`:
 * they run several repository calls as one change through this service, and every statement
 * inside joins the transaction (the client keeps it in the fiber's context).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"

export class Transactions extends Effect.Service<Transactions>()("Transactions", {
  effect: Effect.map(SqlClient.SqlClient, (sql) => ({
    /** Runs `effect` in one transaction: all of it commits, or none of it. */
    run: <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError.SqlError, R> => sql.withTransaction(effect)
  }))
}) {}
