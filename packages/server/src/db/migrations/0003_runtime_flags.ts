/** Runtime flags per tenant: a JSON object the staff edit; the service reads the keys it knows. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE tenant_runtime_flags (
      client_id  text PRIMARY KEY REFERENCES tenants (client_id) ON DELETE CASCADE,
      flags      jsonb NOT NULL DEFAULT '{}'::jsonb,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
})
