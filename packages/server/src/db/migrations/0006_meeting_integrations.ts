/**
 * The calendar and video-meeting connections of closers (OAuth 2 with PKCE): the flows in progress
 * (`oauth_states`, by the SHA-256 of `state` only, single use, bound to the user and the closer)
 * and the connections, their tokens sealed by Secrets.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE oauth_states (
      state_hash    text PRIMARY KEY,
      kind          text NOT NULL CHECK (kind IN ('calendar', 'video')),
      client_id     text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id       text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      closer_id     text NOT NULL REFERENCES closers (closer_id) ON DELETE CASCADE,
      sealed_verifier text NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      expires_at    timestamptz NOT NULL,
      used_at       timestamptz
    )`
  yield* sql`CREATE INDEX oauth_states_expires_idx ON oauth_states (expires_at)`
  yield* sql`
    CREATE TABLE closer_integrations (
      closer_id            text NOT NULL REFERENCES closers (closer_id) ON DELETE CASCADE,
      kind                 text NOT NULL CHECK (kind IN ('calendar', 'video')),
      client_id            text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      status               text NOT NULL CHECK (status IN ('connected', 'error')),
      sealed_access_token  text NOT NULL,
      sealed_refresh_token text,
      token_last4          text NOT NULL,
      token_expires_at     timestamptz,
      scope                text,
      connected_at         timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      last_success_at      timestamptz,
      last_error           text,
      last_error_at        timestamptz,
      PRIMARY KEY (closer_id, kind)
    )`
  yield* sql`CREATE INDEX closer_integrations_client_idx ON closer_integrations (client_id, kind)`
})
