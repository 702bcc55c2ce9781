/**
 * The workspace's rows (migration 0013): the users' workspace sessions, pinned calls and recent
 * searches, and what the actions read of a call. Every statement is scoped to the tenant and, for
 * the user's own rows, to the user.
 */
import { CallId, ClientId, type Sees, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { CallSource } from "../calls/CallsRepo.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

const TenantUser = Schema.Struct({ clientId: ClientId, userId: UserId })
const TenantCall = Schema.Struct({ clientId: ClientId, callId: CallId })
const UserCall = Schema.Struct({ ...TenantUser.fields, callId: CallId })
/** A call of the tenant that the caller sees (a rep: their own; `Sees.ts`). */
const SeenCall = Schema.Struct({ ...TenantCall.fields, sees: SeesSchema })

export const SessionRow = Schema.Struct({
  session_id: Schema.String,
  user_id: UserId,
  client_id: ClientId,
  created_at: IsoTimestamp,
  expires_at: IsoTimestamp
})

export const PinRow = Schema.Struct({ call_id: CallId, title: Schema.NullOr(Schema.String), pinned_at: IsoTimestamp })

export const SearchRow = Schema.Struct({ q: Schema.String, at: IsoTimestamp, results: Schema.Number })

/** What a re-analysis needs of a call, read with the call's row locked. */
export const ReanalysisCall = Schema.Struct({
  call_id: CallId,
  status: Schema.Literal("queued", "processing", "completed", "failed"),
  source: CallSource,
  blob_key: Schema.String,
  method_version: Schema.NullOr(Schema.String),
  completed_at: NullableIsoTimestamp,
  charged: Schema.Boolean
})
export type ReanalysisCall = typeof ReanalysisCall.Type

/** Recent searches kept per user; older ones are pruned as new ones are recorded. */
export const SEARCHES_KEPT = 50

export class WorkspaceRepo extends Effect.Service<WorkspaceRepo>()("WorkspaceRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertSession = Rows.single({
      Request: Schema.Struct({ ...TenantUser.fields, sessionId: Schema.String, hours: Schema.Number }),
      Result: SessionRow,
      execute: (s) =>
        sql`INSERT INTO workspace_sessions (session_id, client_id, user_id, expires_at)
            VALUES (${s.sessionId}, ${s.clientId}, ${s.userId}, now() + make_interval(hours => ${s.hours}))
            RETURNING session_id, user_id, client_id, created_at, expires_at`
    })

    /** Expired sessions of the user go when a new one is made. */
    const pruneSessions = Rows.execute({
      Request: TenantUser,
      execute: ({ clientId, userId }) =>
        sql`DELETE FROM workspace_sessions WHERE client_id = ${clientId} AND user_id = ${userId} AND expires_at <= now()`
    })

    const currentSession = Rows.findOne({
      Request: TenantUser,
      Result: SessionRow,
      execute: ({ clientId, userId }) =>
        sql`SELECT session_id, user_id, client_id, created_at, expires_at FROM workspace_sessions
            WHERE client_id = ${clientId} AND user_id = ${userId} AND expires_at > now()
            ORDER BY created_at DESC, session_id DESC LIMIT 1`
    })

    const callExists = Rows.single({
      Request: SeenCall,
      Result: Schema.Struct({ exists: Schema.Boolean }),
      execute: ({ callId, clientId, sees }) =>
        sql`SELECT EXISTS (SELECT 1 FROM calls c WHERE client_id = ${clientId} AND call_id = ${callId}
                           AND ${seenBy(sql, sees, "c.closer_email")}) AS exists`
    })

    /** The pin, new or as it was; `created` says which. */
    const pin = Rows.single({
      Request: UserCall,
      Result: Schema.Struct({ pinned_at: IsoTimestamp, created: Schema.Boolean }),
      execute: ({ callId, clientId, userId }) =>
        sql`WITH inserted AS (
              INSERT INTO workspace_pins (client_id, user_id, call_id) VALUES (${clientId}, ${userId}, ${callId})
              ON CONFLICT (client_id, user_id, call_id) DO NOTHING
              RETURNING pinned_at)
            SELECT pinned_at, true AS created FROM inserted
            UNION ALL
            SELECT pinned_at, false FROM workspace_pins
            WHERE client_id = ${clientId} AND user_id = ${userId} AND call_id = ${callId} AND NOT EXISTS (SELECT 1 FROM inserted)`
    })

    const unpin = Rows.findAll({
      Request: UserCall,
      Result: Schema.Struct({ call_id: CallId }),
      execute: ({ callId, clientId, userId }) =>
        sql`DELETE FROM workspace_pins WHERE client_id = ${clientId} AND user_id = ${userId} AND call_id = ${callId}
            RETURNING call_id`
    })

    /** The user's pinned calls, the latest pinned first, each titled as the search titles a call. */
    const pins = Rows.findAll({
      Request: TenantUser,
      Result: PinRow,
      execute: ({ clientId, userId }) =>
        sql`SELECT p.call_id, p.pinned_at,
                   'Call ' || coalesce(c.external_call_id, c.call_id) || coalesce(' · ' || c.closer_email, '') || ' · ' ||
                     to_char(c.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS title
            FROM workspace_pins p JOIN calls c ON c.call_id = p.call_id AND c.client_id = p.client_id
            WHERE p.client_id = ${clientId} AND p.user_id = ${userId}
            ORDER BY p.pinned_at DESC, p.call_id`
    })

    const insertSearch = Rows.execute({
      Request: Schema.Struct({ ...TenantUser.fields, searchId: Schema.String, q: Schema.String, results: Schema.Number }),
      execute: (s) =>
        sql`INSERT INTO workspace_searches (search_id, client_id, user_id, q, results)
            VALUES (${s.searchId}, ${s.clientId}, ${s.userId}, ${s.q}, ${s.results})`
    })

    const pruneSearches = Rows.execute({
      Request: TenantUser,
      execute: ({ clientId, userId }) =>
        sql`DELETE FROM workspace_searches WHERE client_id = ${clientId} AND user_id = ${userId} AND search_id NOT IN (
              SELECT search_id FROM workspace_searches WHERE client_id = ${clientId} AND user_id = ${userId}
              ORDER BY at DESC, search_id DESC LIMIT ${SEARCHES_KEPT})`
    })

    /** The user's latest searches, newest first, each text once (its latest run). */
    const recentSearches = Rows.findAll({
      Request: Schema.Struct({ ...TenantUser.fields, limit: Schema.Number }),
      Result: SearchRow,
      execute: ({ clientId, limit, userId }) =>
        sql`SELECT q, at, results FROM (
              SELECT DISTINCT ON (q) q, at, results, search_id FROM workspace_searches
              WHERE client_id = ${clientId} AND user_id = ${userId}
              ORDER BY q, at DESC, search_id DESC
            ) latest
            ORDER BY at DESC, search_id DESC LIMIT ${limit}`
    })

    const lockCall = Rows.findOne({
      Request: SeenCall,
      Result: ReanalysisCall,
      execute: ({ callId, clientId, sees }) =>
        sql`SELECT c.call_id, c.status, c.source, c.blob_key, c.method_version, c.completed_at,
                   EXISTS (SELECT 1 FROM credit_ledger l WHERE l.call_id = c.call_id AND l.reason = 'analysis') AS charged
            FROM calls c WHERE c.client_id = ${clientId} AND c.call_id = ${callId} AND ${seenBy(sql, sees, "c.closer_email")}
            FOR UPDATE`
    })

    /** Whether `email` is one of the tenant's users or closers: the e-mail channel sends to nobody else. */
    const knownAddress = Rows.single({
      Request: Schema.Struct({ clientId: ClientId, email: Schema.String }),
      Result: Schema.Struct({ known: Schema.Boolean }),
      execute: ({ clientId, email }) =>
        sql`SELECT EXISTS (SELECT 1 FROM users WHERE client_id = ${clientId} AND lower(email) = lower(${email}))
                OR EXISTS (SELECT 1 FROM closers WHERE client_id = ${clientId} AND lower(email) = lower(${email})
                                                   AND status <> 'removed') AS known`
    })

    return {
      insertSession: (clientId: ClientId, userId: UserId, sessionId: string, hours: number) =>
        insertSession({ clientId, userId, sessionId, hours }),
      pruneSessions: (clientId: ClientId, userId: UserId) => pruneSessions({ clientId, userId }),
      currentSession: (clientId: ClientId, userId: UserId) => currentSession({ clientId, userId }),
      callExists: (clientId: ClientId, sees: Sees, callId: CallId) => Effect.map(callExists({ clientId, sees, callId }), (r) => r.exists),
      pin: (clientId: ClientId, userId: UserId, callId: CallId) => pin({ clientId, userId, callId }),
      unpin: (clientId: ClientId, userId: UserId, callId: CallId) =>
        Effect.map(unpin({ clientId, userId, callId }), (rows) => rows.length > 0),
      pins: (clientId: ClientId, userId: UserId) => pins({ clientId, userId }),
      recordSearch: (clientId: ClientId, userId: UserId, searchId: string, q: string, results: number) =>
        Effect.zipRight(insertSearch({ clientId, userId, searchId, q, results }), pruneSearches({ clientId, userId })),
      recentSearches: (clientId: ClientId, userId: UserId, limit: number) => recentSearches({ clientId, userId, limit }),
      lockCall: (clientId: ClientId, sees: Sees, callId: CallId) => lockCall({ clientId, sees, callId }),
      knownAddress: (clientId: ClientId, email: string) => Effect.map(knownAddress({ clientId, email }), (r) => r.known)
    } as const
  })
}) {}
