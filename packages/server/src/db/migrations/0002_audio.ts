/** Uploaded calls, their analysis jobs, upload idempotency keys, and sales-call events. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE calls (
      call_id          text PRIMARY KEY,
      client_id        text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      external_call_id text,
      closer_email     text,
      status           text NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
      stage            text NOT NULL DEFAULT 'queued',
      progress         double precision NOT NULL DEFAULT 0,
      format           text NOT NULL,
      blob_key         text NOT NULL,
      size_bytes       bigint NOT NULL,
      sha256           text NOT NULL,
      created_at       timestamptz NOT NULL DEFAULT now(),
      started_at       timestamptz,
      completed_at     timestamptz,
      duration_s       double precision,
      method_version   text,
      error_code       text,
      error_message    text,
      result           jsonb
    )`
  // The tenant's calls, newest first (list pages, plan usage of the month).
  yield* sql`CREATE INDEX calls_client_created_idx ON calls (client_id, created_at DESC, call_id DESC)`

  // One job per call. A worker holds it under a lease it renews; an expired lease frees it.
  yield* sql`
    CREATE TABLE analysis_jobs (
      call_id          text PRIMARY KEY REFERENCES calls (call_id) ON DELETE CASCADE,
      state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
      attempts         integer NOT NULL DEFAULT 0,
      run_after        timestamptz NOT NULL DEFAULT now(),
      lease_owner      text,
      lease_expires_at timestamptz,
      last_error       text,
      created_at       timestamptz NOT NULL DEFAULT now(),
      updated_at       timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX analysis_jobs_open_idx ON analysis_jobs (run_after) WHERE state IN ('pending', 'running')`

  yield* sql`
    CREATE TABLE upload_idempotency (
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      key        text NOT NULL,
      sha256     text NOT NULL,
      call_id    text NOT NULL REFERENCES calls (call_id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (client_id, key)
    )`

  // At most one analysis charge per call: a second charge cannot be written.
  yield* sql`CREATE UNIQUE INDEX credit_ledger_one_charge_per_call ON credit_ledger (call_id) WHERE reason = 'analysis'`

  yield* sql`
    CREATE TABLE call_events (
      event_id     text PRIMARY KEY,
      client_id    text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      type         text NOT NULL,
      platform     text NOT NULL,
      status       text NOT NULL,
      closer_email text,
      call_id      text,
      error        text,
      received_at  timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX call_events_client_idx ON call_events (client_id, received_at DESC)`
})
