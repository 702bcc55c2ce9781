/**
 * The tenant's trackers (`trackers`) and the mentions found in its calls (`tracker_mentions`), and
 * what matching reads: the market profile's competitors and the completed calls' transcripts.
 * Every read takes the tenant's id.
 */
import { type ClientId, type Sees, Tracker, TrackerId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { findAll, findOne, IsoTimestamp, resultArray } from "../db/Rows.js"
import { seenBy, SeesSchema } from "../tenancy/Sees.js"

const TrackerRow = Schema.Struct({
  ...Tracker.fields,
  terms: Schema.Array(Schema.String),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
})

/** A mention as stored. */
export interface MentionInsert {
  readonly term: string
  readonly speaker: string
  readonly role: string | null
  readonly start: number
  readonly matched: string
  readonly quote: string
}

const TranscriptSegment = Schema.Struct({ speaker: Schema.String, start: Schema.Number, text: Schema.String })
const SpeakerRole = Schema.Struct({ speaker: Schema.String, role: Schema.String })

/** A completed call's transcript, as matching reads it. */
const CallTranscript = Schema.Struct({
  call_id: Schema.String,
  transcript: Schema.Array(Schema.Unknown),
  speakers: Schema.Array(Schema.Unknown)
})
export interface CallWords {
  readonly call_id: string
  readonly turns: ReadonlyArray<typeof TranscriptSegment.Type>
  readonly roles: ReadonlyMap<string, string>
}

const decodeSegment = Schema.decodeUnknownOption(TranscriptSegment)
const decodeSpeaker = Schema.decodeUnknownOption(SpeakerRole)

const toCallWords = (row: typeof CallTranscript.Type): CallWords => {
  const roles = new Map<string, string>()
  for (const s of row.speakers) {
    const speaker = decodeSpeaker(s)
    if (speaker._tag === "Some") roles.set(speaker.value.speaker, speaker.value.role)
  }
  const turns = row.transcript.flatMap((t) => {
    const segment = decodeSegment(t)
    return segment._tag === "Some" ? [segment.value] : []
  })
  return { call_id: row.call_id, turns, roles }
}

/** A mention with its call, as the report reads it. */
export const MentionRow = Schema.Struct({
  tracker_id: TrackerId,
  term: Schema.String,
  call_id: Schema.String,
  ord: Schema.Number,
  speaker: Schema.String,
  role: Schema.NullOr(Schema.String),
  start_s: Schema.Number,
  matched: Schema.String,
  quote: Schema.String,
  closer_email: Schema.NullOr(Schema.String),
  external_call_id: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  /** When the call's meeting took place (`occurred_at`): the period it counts in. */
  meeting_at: IsoTimestamp,
  /** The call's deal (docs/deals.md); null: none. */
  deal_id: Schema.NullOr(Schema.String)
})
export type MentionRow = typeof MentionRow.Type

export class TrackersRepo extends Effect.Service<TrackersRepo>()("TrackersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const list = findAll({
      Request: Schema.String,
      Result: TrackerRow,
      execute: (clientId) =>
        sql`SELECT tracker_id, name, kind, terms, source, created_at, updated_at FROM trackers
            WHERE client_id = ${clientId} ORDER BY (source = 'market_profile') DESC, lower(name), tracker_id`
    })

    const find = findOne({
      Request: Schema.Struct({ clientId: Schema.String, trackerId: Schema.String }),
      Result: TrackerRow,
      execute: (r) =>
        sql`SELECT tracker_id, name, kind, terms, source, created_at, updated_at FROM trackers
            WHERE client_id = ${r.clientId} AND tracker_id = ${r.trackerId}`
    })

    const nameTaken = findOne({
      Request: Schema.Struct({ clientId: Schema.String, name: Schema.String, except: Schema.String }),
      Result: Schema.Struct({ tracker_id: Schema.String }),
      execute: (r) =>
        sql`SELECT tracker_id FROM trackers WHERE client_id = ${r.clientId} AND lower(name) = lower(${r.name})
            AND tracker_id <> ${r.except}`
    })

    const competitors = findOne({
      Request: Schema.String,
      Result: Schema.Struct({ competitors: Schema.Unknown }),
      execute: (clientId) => sql`SELECT profile -> 'competitors' AS competitors FROM market_profiles WHERE client_id = ${clientId}`
    })

    const insert = findOne({
      Request: Schema.Struct({
        trackerId: Schema.String,
        clientId: Schema.String,
        name: Schema.String,
        kind: Schema.String,
        terms: Schema.Array(Schema.String),
        source: Schema.String
      }),
      Result: TrackerRow,
      execute: (r) =>
        sql`INSERT INTO trackers (tracker_id, client_id, name, kind, terms, source)
            VALUES (${r.trackerId}, ${r.clientId}, ${r.name}, ${r.kind}, ${JSON.stringify(r.terms)}::jsonb, ${r.source})
            ON CONFLICT DO NOTHING
            RETURNING tracker_id, name, kind, terms, source, created_at, updated_at`
    })

    const update = findOne({
      Request: Schema.Struct({
        trackerId: Schema.String,
        clientId: Schema.String,
        name: Schema.String,
        kind: Schema.String,
        terms: Schema.Array(Schema.String)
      }),
      Result: TrackerRow,
      execute: (r) =>
        sql`UPDATE trackers SET name = ${r.name}, kind = ${r.kind}, terms = ${JSON.stringify(r.terms)}::jsonb, updated_at = now()
            WHERE client_id = ${r.clientId} AND tracker_id = ${r.trackerId}
            RETURNING tracker_id, name, kind, terms, source, created_at, updated_at`
    })

    const remove = findOne({
      Request: Schema.Struct({ clientId: Schema.String, trackerId: Schema.String }),
      Result: TrackerRow,
      execute: (r) =>
        sql`DELETE FROM trackers WHERE client_id = ${r.clientId} AND tracker_id = ${r.trackerId}
            RETURNING tracker_id, name, kind, terms, source, created_at, updated_at`
    })

    const countCompleted = findOne({
      Request: Schema.String,
      Result: Schema.Struct({ n: Schema.NumberFromString }),
      execute: (clientId) =>
        sql`SELECT count(*)::text AS n FROM calls WHERE client_id = ${clientId} AND status = 'completed'`
    })

    const transcripts = findAll({
      Request: Schema.Struct({ clientId: Schema.String, limit: Schema.Number, offset: Schema.Number }),
      Result: CallTranscript,
      execute: (r) =>
        sql`SELECT call_id, ${resultArray(sql, null, "transcript")} AS transcript, ${resultArray(sql, null, "speakers")} AS speakers
            FROM calls WHERE client_id = ${r.clientId} AND status = 'completed'
            ORDER BY completed_at DESC NULLS LAST, call_id LIMIT ${r.limit} OFFSET ${r.offset}`
    })

    const transcript = findOne({
      Request: Schema.Struct({ clientId: Schema.String, callId: Schema.String }),
      Result: CallTranscript,
      execute: (r) =>
        sql`SELECT call_id, ${resultArray(sql, null, "transcript")} AS transcript, ${resultArray(sql, null, "speakers")} AS speakers
            FROM calls WHERE client_id = ${r.clientId} AND call_id = ${r.callId} AND status = 'completed'`
    })

    const mentions = findAll({
      Request: Schema.Struct({
        clientId: Schema.String,
        sees: SeesSchema,
        from: Schema.String,
        to: Schema.String,
        trackerId: Schema.NullOr(Schema.String),
        closerEmail: Schema.NullOr(Schema.String),
        dealId: Schema.NullOr(Schema.String)
      }),
      Result: MentionRow,
      execute: (r) =>
        sql`SELECT m.tracker_id, m.term, m.call_id, m.ord, m.speaker, m.role, m.start_s, m.matched, m.quote,
                   c.closer_email, c.external_call_id, c.created_at, c.occurred_at AS meeting_at, c.deal_id
            FROM tracker_mentions m JOIN calls c ON c.call_id = m.call_id AND c.client_id = m.client_id
            WHERE m.client_id = ${r.clientId} AND c.status = 'completed'
              AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz
              AND ${seenBy(sql, r.sees as Sees, "c.closer_email")}
              AND (${r.trackerId}::text IS NULL OR m.tracker_id = ${r.trackerId})
              AND (${r.closerEmail}::text IS NULL OR lower(c.closer_email) = lower(${r.closerEmail}))
              AND (${r.dealId}::text IS NULL OR c.deal_id = ${r.dealId})
            ORDER BY c.occurred_at DESC, c.call_id DESC, m.start_s, m.tracker_id, m.ord`
    })

    /** Replaces a tracker's mentions in one call. */
    const replaceMentions = (trackerId: TrackerId, clientId: ClientId, callId: string, found: ReadonlyArray<MentionInsert>) =>
      Effect.gen(function* () {
        yield* sql`DELETE FROM tracker_mentions WHERE tracker_id = ${trackerId} AND call_id = ${callId}`
        if (found.length === 0) return
        yield* sql`INSERT INTO tracker_mentions ${
          sql.insert(found.map((m, ord) => ({
            tracker_id: trackerId,
            call_id: callId,
            client_id: clientId,
            ord,
            term: m.term,
            speaker: m.speaker,
            role: m.role,
            start_s: m.start,
            matched: m.matched,
            quote: m.quote
          })))
        }`
      })

    const clearMentions = (trackerId: TrackerId) => sql`DELETE FROM tracker_mentions WHERE tracker_id = ${trackerId}`.pipe(Effect.asVoid)

    return {
      list: (clientId: ClientId) => list(clientId),
      find: (clientId: ClientId, trackerId: string) => find({ clientId, trackerId }),
      nameTaken: (clientId: ClientId, name: string, except: string) => nameTaken({ clientId, name, except }),
      competitors: (clientId: ClientId) =>
        Effect.map(competitors(clientId), (row) => {
          const value = row._tag === "Some" ? row.value.competitors : null
          return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []
        }),
      insert,
      update,
      remove: (clientId: ClientId, trackerId: string) => remove({ clientId, trackerId }),
      countCompleted: (clientId: ClientId) => Effect.map(countCompleted(clientId), (row) => (row._tag === "Some" ? row.value.n : 0)),
      transcripts: (clientId: ClientId, limit: number, offset: number) =>
        Effect.map(transcripts({ clientId, limit, offset }), (rows) => rows.map(toCallWords)),
      transcript: (clientId: ClientId, callId: string) =>
        Effect.map(transcript({ clientId, callId }), (row) => (row._tag === "Some" ? toCallWords(row.value) : null)),
      mentions,
      replaceMentions,
      clearMentions
    } as const
  })
}) {}
