/**
 * The tenants' CRM connections (crm-a, Salesforce, Pipedrive; one per provider, the secret fields
 * sealed by Secrets) and the outcome notes written to crm-a: one per call, of the version of the
 * outcome truth it carried, so each recorded outcome is written to its deal once.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE crm_connections (
      client_id      text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      provider       text NOT NULL CHECK (provider IN ('crm-a', 'salesforce', 'pipedrive')),
      status         text NOT NULL DEFAULT 'connected' CHECK (status IN ('connected', 'error')),
      fields         jsonb NOT NULL DEFAULT '{}'::jsonb,
      sealed_secrets text NOT NULL,
      secret_last4   jsonb NOT NULL DEFAULT '{}'::jsonb,
      sync_outcomes  boolean NOT NULL DEFAULT false,
      synced_through timestamptz,
      last_sync_at   timestamptz,
      last_error     text,
      created_at     timestamptz NOT NULL DEFAULT now(),
      updated_at     timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (client_id, provider)
    )`
  yield* sql`CREATE INDEX crm_connections_sync_idx ON crm_connections (provider) WHERE sync_outcomes`
  yield* sql`
    CREATE TABLE crm_outcome_notes (
      call_id            text NOT NULL REFERENCES calls (call_id) ON DELETE CASCADE,
      provider           text NOT NULL,
      client_id          text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      outcome_updated_at timestamptz NOT NULL,
      state              text NOT NULL CHECK (state IN ('writing', 'written', 'no_deal', 'failed')),
      deal_id            text,
      note_id            text,
      attempted_at       timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (call_id, provider)
    )`
  yield* sql`CREATE INDEX calls_client_external_idx ON calls (client_id, lower(external_call_id)) WHERE external_call_id IS NOT NULL`
})
