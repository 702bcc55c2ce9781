/**
 * The workspace (issue 16, spec 4.8): the signed-in user's sessions, pinned calls and recent
 * searches. All three are per user (a pin is the user's bookmark, not the team's), removed with
 * their tenant, user or call.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE workspace_sessions (
      session_id text PRIMARY KEY,
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id    text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX workspace_sessions_user_idx ON workspace_sessions (client_id, user_id, created_at DESC)`

  yield* sql`
    CREATE TABLE workspace_pins (
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id   text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      call_id   text NOT NULL REFERENCES calls (call_id) ON DELETE CASCADE,
      pinned_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (client_id, user_id, call_id)
    )`

  yield* sql`
    CREATE TABLE workspace_searches (
      search_id text PRIMARY KEY,
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id   text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      q         text NOT NULL,
      results   integer NOT NULL,
      at        timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX workspace_searches_user_idx ON workspace_searches (client_id, user_id, at DESC)`
})
