/**
 * The companion channels (the Telegram and WhatsApp chats that receive the daily brief):
 * - `companion_connect_codes`: one-time codes that link a chat to a tenant (and optionally one of
 *   its users), kept only as the SHA-256 of the code, used at most once, until they expire;
 * - `companion_links`: which chat of which channel belongs to which tenant. A chat has at most one
 *   active link (a partial unique index): it belongs to one tenant; unlinked ones stay as history;
 * - `companion_updates`: every inbound update handled, by the platform's id (the Telegram
 *   `update_id`, the WhatsApp message id, or a status of a message), so one delivered twice is
 *   handled once (kept as long as a platform may deliver one again, then pruned);
 * - `companion_deliveries`: every message sent (replies and pushes), without its text, with the
 *   platform's message id and the delivery statuses it reported later.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE companion_connect_codes (
      code_id     text PRIMARY KEY,
      client_id   text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id     text REFERENCES users (user_id) ON DELETE CASCADE,
      channel     text NOT NULL CHECK (channel IN ('messenger-a', 'messenger-b')),
      code_hash   text NOT NULL UNIQUE,
      created_by  text NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz,
      used_by_link text
    )`
  yield* sql`CREATE INDEX companion_connect_codes_client_idx ON companion_connect_codes (client_id, expires_at)`

  yield* sql`
    CREATE TABLE companion_links (
      link_id         text PRIMARY KEY,
      client_id       text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      user_id         text REFERENCES users (user_id) ON DELETE SET NULL,
      channel         text NOT NULL CHECK (channel IN ('messenger-a', 'messenger-b')),
      chat_id         text NOT NULL,
      code_id         text,
      active          boolean NOT NULL DEFAULT true,
      linked_at       timestamptz NOT NULL DEFAULT now(),
      last_message_at timestamptz,
      last_push_at    timestamptz,
      unlinked_at     timestamptz,
      CHECK (active = (unlinked_at IS NULL))
    )`
  yield* sql`CREATE UNIQUE INDEX companion_links_chat_idx ON companion_links (channel, chat_id) WHERE active`
  yield* sql`CREATE INDEX companion_links_client_idx ON companion_links (client_id, channel)`

  yield* sql`
    CREATE TABLE companion_updates (
      channel     text NOT NULL,
      update_key  text NOT NULL,
      kind        text NOT NULL,
      link_id     text,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (channel, update_key)
    )`
  yield* sql`CREATE INDEX companion_updates_received_idx ON companion_updates (channel, received_at DESC)`

  yield* sql`
    CREATE TABLE companion_deliveries (
      delivery_id         text PRIMARY KEY,
      client_id           text REFERENCES tenants (client_id) ON DELETE CASCADE,
      link_id             text,
      channel             text NOT NULL,
      chat_id             text NOT NULL,
      kind                text NOT NULL CHECK (kind IN ('reply', 'push')),
      purpose             text NOT NULL,
      status              text NOT NULL,
      provider_message_id text,
      error               text,
      created_at          timestamptz NOT NULL DEFAULT now(),
      status_at           timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX companion_deliveries_provider_idx ON companion_deliveries (channel, provider_message_id)`
  yield* sql`CREATE INDEX companion_deliveries_client_idx ON companion_deliveries (client_id, created_at DESC)`
})
