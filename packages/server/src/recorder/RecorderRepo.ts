/**
 * The recorder's rows: each tenant's setting (`recorder_settings`) and the meetings its bots were
 * sent to (`recorder_bots`). Reads for a tenant take its `ClientId` first; the passes (scheduling,
 * polling) act for every tenant. A meeting moves `pending` (to create at the provider) →
 * `scheduled` → `joining` → `in_call` → `processing` (its recording fetched under a lease) →
 * `recorded` | `failed`, or `cancelled`; each move is conditional on the state it leaves, so two
 * processes (or the webhook and the poll) never both take the same step.
 */
import { CallId, ClientId, CloserId, RecallJoinMode, RecallMeetingState, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

export const SettingsRow = Schema.Struct({
  client_id: ClientId,
  active: Schema.Boolean,
  join_mode: RecallJoinMode,
  bot_name: Schema.NullOr(Schema.String),
  platforms: Schema.Array(Schema.String),
  activated_at: NullableIsoTimestamp
})
export type SettingsRow = typeof SettingsRow.Type

export const MeetingRow = Schema.Struct({
  meeting_id: Schema.String,
  client_id: ClientId,
  closer_id: Schema.NullOr(CloserId),
  closer_email: Schema.NullOr(Schema.String),
  source: Schema.Literal("calendar", "manual"),
  calendar_event_id: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  meeting_url: Schema.String,
  platform: Schema.String,
  join_at: IsoTimestamp,
  ends_at: NullableIsoTimestamp,
  provider_bot_id: Schema.NullOr(Schema.String),
  state: RecallMeetingState,
  bot_status: Schema.NullOr(Schema.String),
  joined: Schema.Boolean,
  call_id: Schema.NullOr(CallId),
  error: Schema.NullOr(Schema.String),
  attempts: Schema.Number,
  fetch_attempts: Schema.Number,
  /** The calendar event's invitees (none for a manual meeting): the recorded call carries them. */
  attendees: Schema.Array(Schema.String),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
})
export type MeetingRow = typeof MeetingRow.Type

export const NewMeeting = Schema.Struct({
  meetingId: Schema.String,
  clientId: ClientId,
  closerId: CloserId,
  closerEmail: Schema.String,
  source: Schema.Literal("calendar", "manual"),
  calendarEventId: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  meetingUrl: Schema.String,
  platform: Schema.String,
  joinAt: Schema.String,
  endsAt: Schema.NullOr(Schema.String),
  attendees: Schema.Array(Schema.String),
  /** Seconds the inserting process holds the new row before another may create its bot. */
  holdSeconds: Schema.Number
})

const StatusSummary = Schema.Struct({
  recorded_total: Schema.Number,
  last_recording_at: NullableIsoTimestamp,
  upcoming: Schema.Number,
  scheduled_7d: Schema.Number,
  recorded_7d: Schema.Number,
  failed_7d: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  last_error_at: NullableIsoTimestamp
})

const CloserRow = Schema.Struct({ closer_id: CloserId, email: Schema.String, status: Schema.String })

const OPEN = ["scheduled", "joining", "in_call"] as const

export class RecorderRepo extends Effect.Service<RecorderRepo>()("RecorderRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const meetingFields = sql`meeting_id, client_id, closer_id, closer_email, source, calendar_event_id, title, meeting_url,
                              platform, join_at, ends_at, provider_bot_id, state, bot_status, joined, call_id, error,
                              attempts, fetch_attempts, attendees, created_at, updated_at`
    const settingsFields = sql`client_id, active, join_mode, bot_name, platforms, activated_at`

    // -----------------------------------------------------------------------------------------
    // Settings

    const settings = Rows.findOne({
      Request: ClientId,
      Result: SettingsRow,
      execute: (clientId) => sql`SELECT ${settingsFields} FROM recorder_settings WHERE client_id = ${clientId}`
    })

    /** Turns it on (or changes its mode, name, platforms); `activated_at` moves only when it was off. */
    const activate = Rows.single({
      Request: Schema.Struct({
        clientId: ClientId,
        joinMode: RecallJoinMode,
        botName: Schema.NullOr(Schema.String),
        platforms: Schema.Array(Schema.String)
      }),
      Result: SettingsRow,
      execute: (s) =>
        sql`INSERT INTO recorder_settings (client_id, active, join_mode, bot_name, platforms, activated_at)
            VALUES (${s.clientId}, true, ${s.joinMode}, ${s.botName}, ${JSON.stringify(s.platforms)}::jsonb, now())
            ON CONFLICT (client_id) DO UPDATE SET
              active = true, join_mode = EXCLUDED.join_mode, bot_name = EXCLUDED.bot_name, platforms = EXCLUDED.platforms,
              activated_at = CASE WHEN recorder_settings.active THEN recorder_settings.activated_at ELSE now() END,
              updated_at = now()
            RETURNING ${settingsFields}`
    })

    const deactivate = Rows.findOne({
      Request: ClientId,
      Result: SettingsRow,
      execute: (clientId) =>
        sql`UPDATE recorder_settings SET active = false, deactivated_at = now(), updated_at = now()
            WHERE client_id = ${clientId} AND active
            RETURNING ${settingsFields}`
    })

    /** Every active tenant's setting (the scheduling pass). */
    const activeSettings = Rows.findAll({
      Request: Schema.Void,
      Result: SettingsRow,
      execute: () => sql`SELECT ${settingsFields} FROM recorder_settings WHERE active ORDER BY client_id`
    })

    const summary = Rows.single({
      Request: ClientId,
      Result: StatusSummary,
      execute: (clientId) =>
        sql`SELECT
              (SELECT count(*)::int FROM recorder_bots WHERE client_id = ${clientId} AND state = 'recorded') AS recorded_total,
              (SELECT max(recorded_at) FROM recorder_bots WHERE client_id = ${clientId}) AS last_recording_at,
              (SELECT count(*)::int FROM recorder_bots WHERE client_id = ${clientId} AND state IN ('pending', 'scheduled')) AS upcoming,
              (SELECT count(*)::int FROM recorder_bots
                WHERE client_id = ${clientId} AND created_at > now() - interval '7 days') AS scheduled_7d,
              (SELECT count(*)::int FROM recorder_bots
                WHERE client_id = ${clientId} AND state = 'recorded' AND recorded_at > now() - interval '7 days') AS recorded_7d,
              (SELECT count(*)::int FROM recorder_bots
                WHERE client_id = ${clientId} AND state = 'failed' AND failed_at > now() - interval '7 days') AS failed_7d,
              e.error AS last_error, e.at AS last_error_at
            FROM (SELECT 1) one
            LEFT JOIN LATERAL (
              SELECT error, COALESCE(failed_at, updated_at) AS at FROM recorder_bots
              WHERE client_id = ${clientId} AND error IS NOT NULL
              ORDER BY COALESCE(failed_at, updated_at) DESC LIMIT 1
            ) e ON true`
    })

    // -----------------------------------------------------------------------------------------
    // Meetings

    const closer = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, closerId: CloserId }),
      Result: CloserRow,
      execute: ({ clientId, closerId }) =>
        sql`SELECT closer_id, email, status FROM closers WHERE client_id = ${clientId} AND closer_id = ${closerId}`
    })

    /**
     * A new meeting, `pending`, held by the caller for `holdSeconds`. None when the closer's event
     * has one already, or (from a calendar) when the tenant has a bot for the same link at the same
     * time: a meeting two closers share is recorded once, for the closer whose calendar came first.
     */
    const insert = Rows.findOne({
      Request: NewMeeting,
      Result: MeetingRow,
      execute: (m) =>
        sql`INSERT INTO recorder_bots (meeting_id, client_id, closer_id, closer_email, source, calendar_event_id, title, meeting_url,
                                       platform, join_at, ends_at, attendees, state, attempts, retry_after)
            SELECT ${m.meetingId}, ${m.clientId}, ${m.closerId}, ${m.closerEmail}, ${m.source}, ${m.calendarEventId}, ${m.title},
                   ${m.meetingUrl}, ${m.platform}, ${m.joinAt}::timestamptz, ${m.endsAt}::timestamptz,
                   ${JSON.stringify(m.attendees)}::jsonb, 'pending', 1,
                   now() + make_interval(secs => ${m.holdSeconds})
            WHERE ${m.source} = 'manual' OR NOT EXISTS (
              SELECT 1 FROM recorder_bots b
              WHERE b.client_id = ${m.clientId} AND b.meeting_url = ${m.meetingUrl} AND b.join_at = ${m.joinAt}::timestamptz
                AND b.state <> 'cancelled')
            ON CONFLICT (closer_id, calendar_event_id) DO NOTHING
            RETURNING ${meetingFields}`
    })

    /** Pending meetings whose bot is due to be created again, held for `holdSeconds` each. */
    const claimPending = Rows.findAll({
      Request: Schema.Struct({ holdSeconds: Schema.Number, limit: Schema.Number }),
      Result: MeetingRow,
      execute: ({ holdSeconds, limit }) =>
        sql`UPDATE recorder_bots SET attempts = attempts + 1, retry_after = now() + make_interval(secs => ${holdSeconds}),
                                     updated_at = now()
            WHERE meeting_id IN (
              SELECT meeting_id FROM recorder_bots WHERE state = 'pending' AND retry_after <= now()
              ORDER BY join_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING ${meetingFields}`
    })

    const markScheduled = Rows.findOne({
      Request: Schema.Struct({ meetingId: Schema.String, providerBotId: Schema.String, botStatus: Schema.NullOr(Schema.String) }),
      Result: MeetingRow,
      execute: ({ botStatus, meetingId, providerBotId }) =>
        sql`UPDATE recorder_bots SET state = 'scheduled', provider_bot_id = ${providerBotId}, bot_status = ${botStatus},
                                     error = NULL, updated_at = now()
            WHERE meeting_id = ${meetingId} AND state = 'pending'
            RETURNING ${meetingFields}`
    })

    /** The provider did not take the bot: try again after `delaySeconds`. */
    const postpone = Rows.execute({
      Request: Schema.Struct({ meetingId: Schema.String, error: Schema.String, delaySeconds: Schema.Number }),
      execute: ({ delaySeconds, error, meetingId }) =>
        sql`UPDATE recorder_bots SET error = ${error}, retry_after = now() + make_interval(secs => ${delaySeconds}), updated_at = now()
            WHERE meeting_id = ${meetingId} AND state = 'pending'`
    })

    const findByProviderId = Rows.findOne({
      Request: Schema.String,
      Result: MeetingRow,
      execute: (providerBotId) => sql`SELECT ${meetingFields} FROM recorder_bots WHERE provider_bot_id = ${providerBotId}`
    })

    const find = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, meetingId: Schema.String }),
      Result: MeetingRow,
      execute: ({ clientId, meetingId }) =>
        sql`SELECT ${meetingFields} FROM recorder_bots WHERE client_id = ${clientId} AND meeting_id = ${meetingId}`
    })

    /** A status the provider reported, while the meeting is still open. */
    const applyStatus = Rows.execute({
      Request: Schema.Struct({
        meetingId: Schema.String,
        botStatus: Schema.String,
        state: Schema.Literal(...OPEN),
        joined: Schema.Boolean
      }),
      execute: ({ botStatus, joined, meetingId, state }) =>
        sql`UPDATE recorder_bots SET bot_status = ${botStatus}, state = ${state}, joined = joined OR ${joined}, updated_at = now()
            WHERE meeting_id = ${meetingId} AND state IN ('scheduled', 'joining', 'in_call')`
    })

    /** Takes the meeting to fetch its outcome, under a lease; none when it is final or another process holds it. */
    const claimSettle = Rows.findOne({
      Request: Schema.Struct({ meetingId: Schema.String, leaseSeconds: Schema.Number }),
      Result: MeetingRow,
      execute: ({ leaseSeconds, meetingId }) =>
        sql`UPDATE recorder_bots SET state = 'processing', lease_until = now() + make_interval(secs => ${leaseSeconds}),
                                     updated_at = now()
            WHERE meeting_id = ${meetingId} AND provider_bot_id IS NOT NULL
              AND (state IN ('scheduled', 'joining', 'in_call') OR (state = 'processing' AND lease_until < now()))
            RETURNING ${meetingFields}`
    })

    /** The bot is not done yet: back to its open state. */
    const release = Rows.execute({
      Request: Schema.Struct({
        meetingId: Schema.String,
        botStatus: Schema.NullOr(Schema.String),
        state: Schema.Literal(...OPEN),
        joined: Schema.Boolean
      }),
      execute: ({ botStatus, joined, meetingId, state }) =>
        sql`UPDATE recorder_bots SET state = ${state}, bot_status = COALESCE(${botStatus}, bot_status), joined = joined OR ${joined},
                                     lease_until = NULL, updated_at = now()
            WHERE meeting_id = ${meetingId} AND state = 'processing'`
    })

    /** Fetching failed for a passing reason: another try after `delaySeconds`; answers the attempts so far. */
    const retryFetch = Rows.findOne({
      Request: Schema.Struct({ meetingId: Schema.String, error: Schema.String, delaySeconds: Schema.Number }),
      Result: Schema.Struct({ fetch_attempts: Schema.Number }),
      execute: ({ delaySeconds, error, meetingId }) =>
        sql`UPDATE recorder_bots SET fetch_attempts = fetch_attempts + 1, error = ${error},
                                     lease_until = now() + make_interval(secs => ${delaySeconds}), updated_at = now()
            WHERE meeting_id = ${meetingId} AND state = 'processing'
            RETURNING fetch_attempts`
    })

    const markRecorded = Rows.execute({
      Request: Schema.Struct({ meetingId: Schema.String, callId: CallId, botStatus: Schema.NullOr(Schema.String) }),
      execute: ({ botStatus, callId, meetingId }) =>
        sql`UPDATE recorder_bots SET state = 'recorded', call_id = ${callId}, bot_status = COALESCE(${botStatus}, bot_status),
                                     joined = true, error = NULL, lease_until = NULL, recorded_at = now(), updated_at = now()
            WHERE meeting_id = ${meetingId}`
    })

    const markFailed = Rows.execute({
      Request: Schema.Struct({ meetingId: Schema.String, error: Schema.String, botStatus: Schema.NullOr(Schema.String) }),
      execute: ({ botStatus, error, meetingId }) =>
        sql`UPDATE recorder_bots SET state = 'failed', error = ${error}, bot_status = COALESCE(${botStatus}, bot_status),
                                     lease_until = NULL, failed_at = now(), updated_at = now()
            WHERE meeting_id = ${meetingId}`
    })

    const markCancelled = Rows.execute({
      Request: Schema.String,
      execute: (meetingId) =>
        sql`UPDATE recorder_bots SET state = 'cancelled', updated_at = now()
            WHERE meeting_id = ${meetingId} AND state IN ('pending', 'scheduled')`
    })

    /** Open meetings past their end at `at` (their webhook may be lost), and fetches whose lease ran out. */
    const dueForPoll = Rows.findAll({
      Request: Schema.Struct({ at: Schema.String, limit: Schema.Number }),
      Result: MeetingRow,
      execute: ({ at, limit }) =>
        sql`SELECT ${meetingFields} FROM recorder_bots
            WHERE provider_bot_id IS NOT NULL
              AND ((state IN ('scheduled', 'joining', 'in_call')
                    AND COALESCE(ends_at, join_at + interval '1 hour') <= ${at}::timestamptz)
                OR (state = 'processing' AND lease_until < now()))
            ORDER BY join_at LIMIT ${limit}`
    })

    /** Bots waiting for their meeting: of one tenant, or of every tenant whose recorder is off. */
    const waiting = Rows.findAll({
      Request: Schema.NullOr(ClientId),
      Result: MeetingRow,
      execute: (clientId) =>
        sql`SELECT ${meetingFields} FROM recorder_bots b
            WHERE state IN ('pending', 'scheduled')
              AND ${clientId === null
                ? sql`NOT EXISTS (SELECT 1 FROM recorder_settings s WHERE s.client_id = b.client_id AND s.active)`
                : sql`client_id = ${clientId}`}
            ORDER BY join_at`
    })

    /**
     * A page of the tenant's meetings, latest first (equal times: the greater id first), those the
     * viewer sees: a rep's are the bots sent for their closer (the bot's `closer_email`, the
     * closer's e-mail when it was scheduled, compared as calls' are); a bot without a closer e-mail
     * is the team's only.
     */
    const list = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, sees: SeesSchema, limit: Schema.Number, offset: Schema.Number }),
      Result: MeetingRow,
      execute: ({ clientId, limit, offset, sees }) =>
        sql`SELECT ${meetingFields} FROM recorder_bots WHERE client_id = ${clientId} AND ${seenBy(sql, sees, "closer_email")}
            ORDER BY join_at DESC, meeting_id DESC LIMIT ${limit} OFFSET ${offset}`
    })

    /** How many of the tenant's meetings the viewer sees (as `list` narrows them). */
    const count = Rows.single({
      Request: Schema.Struct({ clientId: ClientId, sees: SeesSchema }),
      Result: Schema.Struct({ total: Schema.Number }),
      execute: ({ clientId, sees }) =>
        sql`SELECT count(*)::int AS total FROM recorder_bots WHERE client_id = ${clientId} AND ${seenBy(sql, sees, "closer_email")}`
    })

    return {
      settings,
      activate,
      deactivate,
      activeSettings: activeSettings(undefined),
      summary,
      closer: (clientId: ClientId, closerId: CloserId) => closer({ clientId, closerId }),
      insert,
      claimPending: (holdSeconds: number, limit: number) => claimPending({ holdSeconds, limit }),
      markScheduled,
      postpone,
      findByProviderId,
      find: (clientId: ClientId, meetingId: string) => find({ clientId, meetingId }),
      applyStatus,
      claimSettle: (meetingId: string, leaseSeconds: number) => claimSettle({ meetingId, leaseSeconds }),
      release,
      retryFetch,
      markRecorded,
      markFailed,
      markCancelled,
      dueForPoll: (at: Date, limit: number) => dueForPoll({ at: at.toISOString(), limit }),
      waiting,
      list: (clientId: ClientId, sees: Sees, page: { readonly limit: number; readonly offset: number }) => list({ clientId, sees, ...page }),
      count: (clientId: ClientId, sees: Sees) => Effect.map(count({ clientId, sees }), (row) => row.total)
    } as const
  })
}) {}
