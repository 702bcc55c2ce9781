/**
 * The meeting-recording bot: each tenant's setting (`recorder_settings`), the meetings its bots
 * were sent to (`recorder_bots`, once per calendar event of a closer: a unique index), the alerts
 * of bots that could not record (`recall_alerts`, read by the admin), and where a call came from
 * (`calls.source`: an upload through the API, or the recorder), since only API calls take credits.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE calls ADD COLUMN source text NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'recorder'))`

  yield* sql`
    CREATE TABLE recorder_settings (
      client_id      text PRIMARY KEY REFERENCES tenants (client_id) ON DELETE CASCADE,
      active         boolean NOT NULL,
      join_mode      text NOT NULL CHECK (join_mode IN ('auto', 'manual')),
      bot_name       text,
      platforms      jsonb NOT NULL DEFAULT '[]'::jsonb,
      activated_at   timestamptz,
      deactivated_at timestamptz,
      updated_at     timestamptz NOT NULL DEFAULT now()
    )`

  yield* sql`
    CREATE TABLE recorder_bots (
      meeting_id        text PRIMARY KEY,
      client_id         text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      closer_id         text REFERENCES closers (closer_id) ON DELETE SET NULL,
      closer_email      text,
      source            text NOT NULL CHECK (source IN ('calendar', 'manual')),
      calendar_event_id text,
      title             text,
      meeting_url       text NOT NULL,
      platform          text NOT NULL,
      join_at           timestamptz NOT NULL,
      ends_at           timestamptz,
      provider_bot_id   text UNIQUE,
      state             text NOT NULL CHECK (state IN
                          ('pending', 'scheduled', 'joining', 'in_call', 'processing', 'recorded', 'failed', 'cancelled')),
      bot_status        text,
      joined            boolean NOT NULL DEFAULT false,
      call_id           text REFERENCES calls (call_id) ON DELETE SET NULL,
      error             text,
      recorded_at       timestamptz,
      failed_at         timestamptz,
      -- creating the bot at the provider (state pending), and fetching its recording (processing)
      attempts          integer NOT NULL DEFAULT 0,
      retry_after       timestamptz NOT NULL DEFAULT now(),
      fetch_attempts    integer NOT NULL DEFAULT 0,
      lease_until       timestamptz,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    )`
  // One bot per event of a closer's calendar, however often the calendars are read.
  yield* sql`CREATE UNIQUE INDEX recorder_bots_event_key ON recorder_bots (closer_id, calendar_event_id)`
  yield* sql`CREATE INDEX recorder_bots_client_idx ON recorder_bots (client_id, join_at DESC)`
  // The passes: bots still to create, and bots not final.
  yield* sql`CREATE INDEX recorder_bots_open_idx ON recorder_bots (state, join_at)
             WHERE state IN ('pending', 'scheduled', 'joining', 'in_call', 'processing')`

  yield* sql`
    CREATE TABLE recall_alerts (
      alert_id     text PRIMARY KEY,
      client_id    text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      meeting_id   text REFERENCES recorder_bots (meeting_id) ON DELETE SET NULL,
      kind         text NOT NULL CHECK (kind IN ('bot_join_failed', 'recording_missing', 'ingest_limit_reached')),
      closer_id    text,
      closer_email text,
      platform     text,
      meeting_url  text,
      scheduled_at timestamptz,
      message      text NOT NULL,
      occurred_at  timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX recall_alerts_time_idx ON recall_alerts (occurred_at DESC, alert_id DESC)`
  yield* sql`CREATE INDEX recall_alerts_client_idx ON recall_alerts (client_id, occurred_at DESC, alert_id DESC)`
  // One alert of a kind per meeting, whether the webhook or the poll saw the failure first.
  yield* sql`CREATE UNIQUE INDEX recall_alerts_meeting_kind_key ON recall_alerts (meeting_id, kind)`
})
