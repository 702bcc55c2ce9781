/**
 * The client portal: sign-in (magic links, sessions, rate-limit windows, the e-mail outbox),
 * closers, profiles, outcome truth, monthly usage bonuses and the audit log.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE closers (
      closer_id         text PRIMARY KEY,
      client_id         text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      email             text NOT NULL,
      full_name         text NOT NULL,
      team              text,
      status            text NOT NULL CHECK (status IN ('pending_verification', 'active', 'paused', 'removed')),
      email_verified_at timestamptz,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX closers_client_email_key ON closers (client_id, lower(email))`

  // Single-use tokens sent by e-mail, by SHA-256 only: sign-in links and closer e-mail checks.
  yield* sql`
    CREATE TABLE magic_links (
      token_hash text PRIMARY KEY,
      purpose    text NOT NULL CHECK (purpose IN ('sign_in', 'closer_email')),
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id    text REFERENCES users (user_id) ON DELETE CASCADE,
      closer_id  text REFERENCES closers (closer_id) ON DELETE CASCADE,
      email      text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at    timestamptz,
      CHECK ((purpose = 'sign_in') = (user_id IS NOT NULL)),
      CHECK ((purpose = 'closer_email') = (closer_id IS NOT NULL))
    )`
  yield* sql`CREATE INDEX magic_links_expires_idx ON magic_links (expires_at)`

  // Portal sessions, by the SHA-256 of the cookie's value only.
  yield* sql`
    CREATE TABLE sessions (
      session_hash text PRIMARY KEY,
      user_id      text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      client_id    text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      created_at   timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at   timestamptz NOT NULL,
      ip           text,
      user_agent   text
    )`
  yield* sql`CREATE INDEX sessions_user_idx ON sessions (user_id)`
  yield* sql`CREATE INDEX sessions_expires_idx ON sessions (expires_at)`

  // The store of @effect/experimental's RateLimiter: fixed windows and token buckets by key.
  yield* sql`
    CREATE TABLE rate_limit_windows (
      key        text PRIMARY KEY,
      count      integer NOT NULL,
      expires_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX rate_limit_windows_expires_idx ON rate_limit_windows (expires_at)`
  yield* sql`
    CREATE TABLE rate_limit_buckets (
      key         text PRIMARY KEY,
      tokens      integer NOT NULL,
      last_refill timestamptz NOT NULL
    )`

  // E-mails kept when no SMTP_URL is configured, so the embedded quick start can sign in.
  yield* sql`
    CREATE TABLE email_outbox (
      message_id text PRIMARY KEY,
      to_address text NOT NULL,
      subject    text NOT NULL,
      text_body  text NOT NULL,
      html_body  text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`

  yield* sql`
    CREATE TABLE market_profiles (
      client_id  text PRIMARY KEY REFERENCES tenants (client_id) ON DELETE CASCADE,
      profile    jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE lead_context_profiles (
      client_id  text PRIMARY KEY REFERENCES tenants (client_id) ON DELETE CASCADE,
      profile    jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`

  yield* sql`
    CREATE TABLE outcome_truth (
      call_id      text PRIMARY KEY REFERENCES calls (call_id) ON DELETE CASCADE,
      client_id    text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      outcome      text NOT NULL CHECK (outcome IN ('won', 'lost', 'no_decision', 'open')),
      deal_value   double precision,
      currency     text,
      closed_at    timestamptz,
      stage        text,
      reason       text,
      notes        text,
      is_test_data boolean NOT NULL DEFAULT false,
      recorded_by  text,
      created_at   timestamptz NOT NULL DEFAULT now(),
      updated_at   timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX outcome_truth_client_idx ON outcome_truth (client_id)`

  yield* sql`
    CREATE TABLE usage_bonuses (
      bonus_id      text PRIMARY KEY,
      client_id     text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      month         text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      extra_ingests integer NOT NULL CHECK (extra_ingests > 0),
      reason        text NOT NULL,
      granted_at    timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX usage_bonuses_client_month_idx ON usage_bonuses (client_id, month)`

  // Every change made through the service, written in the transaction of the change.
  yield* sql`
    CREATE TABLE audit_logs (
      log_id      text PRIMARY KEY,
      client_id   text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      at          timestamptz NOT NULL DEFAULT clock_timestamp(),
      actor       text NOT NULL,
      actor_type  text NOT NULL CHECK (actor_type IN ('user', 'api_key', 'staff', 'system')),
      action      text NOT NULL,
      target_type text NOT NULL,
      target_id   text,
      ip          text,
      metadata    jsonb NOT NULL DEFAULT '{}'::jsonb
    )`
  yield* sql`CREATE INDEX audit_logs_client_at_idx ON audit_logs (client_id, at DESC, log_id DESC)`
})
