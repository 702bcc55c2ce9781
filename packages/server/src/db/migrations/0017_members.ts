/**
 * Invitations to join a tenant (issue 36): an owner or an admin invites an e-mail with a role; the
 * e-mailed link (its token stored as SHA-256 only) works once, until `expires_at` (7 days), and
 * creates the user when used. At most one open invitation per e-mail and tenant; a resend replaces
 * the token and the expiry, a revoke ends it, an acceptance names the user it made.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE invitations (
      invitation_id    text PRIMARY KEY,
      client_id        text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      email            text NOT NULL,
      full_name        text,
      role             text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      invited_by       text NOT NULL,
      token_hash       text NOT NULL UNIQUE,
      created_at       timestamptz NOT NULL DEFAULT now(),
      expires_at       timestamptz NOT NULL,
      accepted_at      timestamptz,
      accepted_user_id text,
      revoked_at       timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX invitations_one_open_per_email ON invitations (client_id, lower(email)) WHERE accepted_at IS NULL AND revoked_at IS NULL`
  yield* sql`CREATE INDEX invitations_client_id_idx ON invitations (client_id, created_at DESC)`
})
