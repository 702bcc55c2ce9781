/** Closing an account (issue 36): when its owner closed it; its data is deleted a grace period later. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tenants ADD COLUMN closing_at timestamptz`
})
