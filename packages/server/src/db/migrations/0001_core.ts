/** Tenants, their users and API keys, staff keys, and the prepaid credit ledger. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE tenants (
      client_id    text PRIMARY KEY,
      company_name text NOT NULL,
      industry     text,
      plan         text NOT NULL CHECK (plan IN ('trial', 'starter', 'growth', 'scale')),
      is_test      boolean NOT NULL DEFAULT false,
      created_at   timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE users (
      user_id       text PRIMARY KEY,
      client_id     text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      email         text NOT NULL,
      full_name     text,
      role          text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at    timestamptz NOT NULL DEFAULT now(),
      last_login_at timestamptz
    )`
  // One account per e-mail address: sign-in finds the user by it.
  yield* sql`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`
  yield* sql`CREATE INDEX users_client_id_idx ON users (client_id)`
  yield* sql`
    CREATE TABLE api_keys (
      key_id       text PRIMARY KEY,
      client_id    text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      name         text NOT NULL,
      prefix       text NOT NULL,
      key_hash     text NOT NULL UNIQUE,
      created_at   timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at   timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_client_id_idx ON api_keys (client_id)`
  // Generated staff keys (only when ADMIN_API_KEY is not configured): the hash, never the key.
  yield* sql`
    CREATE TABLE staff_keys (
      kind       text PRIMARY KEY CHECK (kind IN ('admin', 'assistant')),
      prefix     text NOT NULL,
      key_hash   text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  // The balance is the sum of the rows; nothing is ever updated in place.
  yield* sql`
    CREATE TABLE credit_ledger (
      entry_id  bigserial PRIMARY KEY,
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      delta     integer NOT NULL CHECK (delta <> 0),
      reason    text NOT NULL,
      call_id   text,
      at        timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX credit_ledger_client_id_idx ON credit_ledger (client_id)`
})
