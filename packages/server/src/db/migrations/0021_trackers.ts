/**
 * Trackers (issue 38, item 2; docs/trackers.md): a tenant's named lists of words and phrases, and
 * where each was said. `trackers` holds the lists (`source` 'market_profile' for the default
 * Competitors tracker, whose terms follow the market profile's `competitors`; at most one a tenant);
 * `tracker_mentions` one row per mention found in a completed call's transcript, written when the
 * call's analysis completes and, for the calls before, when a tracker is created or changed (a
 * bounded backfill). The report counts these rows: matching every transcript on each read was
 * measured too slow (1.3 µs a word: about 11 s for 1,000 one-hour calls).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE trackers (
      tracker_id text PRIMARY KEY,
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      name       text NOT NULL,
      kind       text NOT NULL CHECK (kind IN ('competitor', 'feature', 'pricing', 'risk', 'custom')),
      terms      jsonb NOT NULL,
      source     text NOT NULL DEFAULT 'tenant' CHECK (source IN ('tenant', 'market_profile')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX trackers_name_idx ON trackers (client_id, lower(name))`
  yield* sql`CREATE UNIQUE INDEX trackers_market_profile_idx ON trackers (client_id) WHERE source = 'market_profile'`
  yield* sql`
    CREATE TABLE tracker_mentions (
      tracker_id text NOT NULL REFERENCES trackers (tracker_id) ON DELETE CASCADE,
      call_id    text NOT NULL REFERENCES calls (call_id) ON DELETE CASCADE,
      client_id  text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      ord        integer NOT NULL,
      term       text NOT NULL,
      speaker    text NOT NULL,
      role       text,
      start_s    double precision NOT NULL,
      matched    text NOT NULL,
      quote      text NOT NULL,
      PRIMARY KEY (tracker_id, call_id, ord)
    )`
  yield* sql`CREATE INDEX tracker_mentions_call_idx ON tracker_mentions (call_id)`
  yield* sql`CREATE INDEX tracker_mentions_client_idx ON tracker_mentions (client_id, tracker_id)`
})
