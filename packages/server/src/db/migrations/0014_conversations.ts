/**
 * The chat's conversations (issue 16): the workspace chat and the portal concierge keep each
 * conversation of a signed-in user, with its messages, so that a `conversation_id` carries the
 * context of the questions before (a follow-up such as "and last week?"). A conversation belongs to
 * its tenant and user and to the door it was started at; it goes with them.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE conversations (
      conversation_id text PRIMARY KEY,
      client_id       text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id         text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      door            text NOT NULL CHECK (door IN ('workspace', 'concierge')),
      created_at      timestamptz NOT NULL DEFAULT now(),
      updated_at      timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX conversations_user_idx ON conversations (client_id, user_id, updated_at DESC)`

  yield* sql`
    CREATE TABLE conversation_messages (
      conversation_id text NOT NULL REFERENCES conversations (conversation_id) ON DELETE CASCADE,
      seq             integer NOT NULL,
      role            text NOT NULL CHECK (role IN ('user', 'assistant')),
      text            text NOT NULL,
      intent          jsonb,
      sources         jsonb NOT NULL DEFAULT '[]'::jsonb,
      at              timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (conversation_id, seq)
    )`
})
