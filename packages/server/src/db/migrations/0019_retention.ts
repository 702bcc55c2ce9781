/**
 * Retention (issue 36): per tenant, how long a call's recording is kept and how long the call is
 * kept at all (days from its upload; none: for ever); and when a call's recording was removed.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE retention_settings (
      client_id     text PRIMARY KEY REFERENCES tenants (client_id) ON DELETE CASCADE,
      audio_days    integer CHECK (audio_days > 0),
      analysis_days integer CHECK (analysis_days > 0),
      updated_at    timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`ALTER TABLE calls ADD COLUMN audio_removed_at timestamptz`
})
