/** The tenants' integrations: LLM and speech-to-text providers (their keys sealed by Secrets). */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE llm_integrations (
      client_id   text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      provider    text NOT NULL,
      sealed_key  text NOT NULL,
      key_last4   text NOT NULL,
      model       text,
      base_url    text,
      last_used_at timestamptz,
      last_error  text,
      created_at  timestamptz NOT NULL DEFAULT now(),
      updated_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (client_id, provider)
    )`
})
