/**
 * Completion webhooks (issue 18): the tenant's endpoints, its signing secret for the uploads'
 * `callback_url`, each call's callback URL, and the outbox: one delivery row per message, written
 * in the transaction that changes the call's status, with every attempt to send it. A delivery's
 * `next_attempt_at` is also its lease: a sender pushes it past the request's time limit when it
 * claims the row, so a sender that dies mid-attempt leaves it to be claimed again.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE webhook_endpoints (
      webhook_id      text PRIMARY KEY,
      client_id       text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      url             text NOT NULL,
      events          jsonb NOT NULL,
      description     text,
      secret_sealed   text NOT NULL,
      status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
      failing_since   timestamptz,
      disabled_at     timestamptz,
      disabled_reason text,
      created_at      timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX webhook_endpoints_client_idx ON webhook_endpoints (client_id, created_at)`

  yield* sql`
    CREATE TABLE webhook_signing_secrets (
      client_id     text PRIMARY KEY REFERENCES tenants (client_id) ON DELETE CASCADE,
      secret_sealed text NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      revealed_at   timestamptz
    )`

  yield* sql`
    CREATE TABLE webhook_callbacks (
      call_id   text PRIMARY KEY REFERENCES calls (call_id) ON DELETE CASCADE,
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      url       text NOT NULL
    )`

  yield* sql`
    CREATE TABLE webhook_deliveries (
      delivery_id     text PRIMARY KEY,
      client_id       text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      webhook_id      text REFERENCES webhook_endpoints (webhook_id) ON DELETE CASCADE,
      url             text NOT NULL,
      event_type      text NOT NULL,
      call_id         text,
      payload         text NOT NULL,
      state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
      attempt_count   integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      created_at      timestamptz NOT NULL DEFAULT now(),
      delivered_at    timestamptz
    )`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (webhook_id, created_at DESC)`

  yield* sql`
    CREATE TABLE webhook_attempts (
      attempt_id   text PRIMARY KEY,
      delivery_id  text NOT NULL REFERENCES webhook_deliveries (delivery_id) ON DELETE CASCADE,
      attempted_at timestamptz NOT NULL DEFAULT now(),
      status_code  integer,
      error        text,
      duration_ms  integer NOT NULL,
      manual       boolean NOT NULL DEFAULT false
    )`
  yield* sql`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at)`
})
