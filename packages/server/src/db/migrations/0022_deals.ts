/**
 * Deals and accounts (issue 38, item 1; docs/deals.md): a call belongs to an account (the buyer's
 * company) and to a deal, and carries when its meeting took place.
 *
 * - `accounts`: a tenant's buyer companies, by name and, when known, by their e-mail domain (one
 *   account a domain, one a name, case-insensitively).
 * - `deals`: a tenant's deals, each of one account (or none); `external_deal_id` is the deal's id in
 *   the uploader's system or CRM (the upload's `deal_id`), one deal per id.
 * - `calls.meeting_at`: when the meeting took place, when known (the recorder's meeting, or the
 *   upload's `meeting_at`); `calls.occurred_at`, generated, is that or else the upload time: the
 *   time every period view counts a call in. `calls.attendees`: the meeting's invitees' addresses
 *   (the recorder's calendar event, or the upload's `attendees`); `account_id` and `deal_id` the
 *   call's account and deal.
 * - `recorder_bots.attendees`: the calendar event's invitees, kept with the bot sent to it, so the
 *   call it records carries them.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE accounts (
      account_id text PRIMARY KEY,
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      name       text NOT NULL,
      domain     text CHECK (domain = lower(domain)),
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX accounts_name_key ON accounts (client_id, lower(name))`
  yield* sql`CREATE UNIQUE INDEX accounts_domain_key ON accounts (client_id, domain) WHERE domain IS NOT NULL`
  yield* sql`
    CREATE TABLE deals (
      deal_id          text PRIMARY KEY,
      client_id        text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      account_id       text REFERENCES accounts (account_id) ON DELETE SET NULL,
      external_deal_id text,
      name             text,
      created_at       timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX deals_external_key ON deals (client_id, external_deal_id) WHERE external_deal_id IS NOT NULL`
  yield* sql`CREATE INDEX deals_account_idx ON deals (account_id, created_at DESC)`
  yield* sql`
    ALTER TABLE calls
      ADD COLUMN meeting_at  timestamptz,
      ADD COLUMN occurred_at timestamptz GENERATED ALWAYS AS (COALESCE(meeting_at, created_at)) STORED,
      ADD COLUMN attendees   jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN account_id  text REFERENCES accounts (account_id) ON DELETE SET NULL,
      ADD COLUMN deal_id     text REFERENCES deals (deal_id) ON DELETE SET NULL`
  yield* sql`CREATE INDEX calls_client_occurred_idx ON calls (client_id, occurred_at DESC)`
  yield* sql`CREATE INDEX calls_deal_idx ON calls (deal_id, occurred_at) WHERE deal_id IS NOT NULL`
  yield* sql`CREATE INDEX calls_account_idx ON calls (account_id, occurred_at) WHERE account_id IS NOT NULL`
  // the calendar event's invitees, kept with the bot sent to it: the call it records carries them
  yield* sql`ALTER TABLE recorder_bots ADD COLUMN attendees jsonb NOT NULL DEFAULT '[]'::jsonb`
})
