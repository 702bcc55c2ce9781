/**
 * The chat's rows (migration 0014): conversations and their messages, every statement scoped to
 * the tenant and the user, and the figures the chat's tools read that no view computes already
 * (a closer's calls in a period, calls ranked by score, win rates by segment). Each figure query
 * filters on the tenant first: a tool can only ever read its caller's tenant.
 */
import { CallId, ClientId, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy, type Viewer } from "../tenancy/Sees.js"

export type Door = "workspace" | "concierge"

const TenantUser = Schema.Struct({ clientId: ClientId, userId: UserId })
const Range = Schema.Struct({ clientId: ClientId, from: Schema.DateFromSelf, to: Schema.DateFromSelf })

export const MessageRow = Schema.Struct({
  seq: Schema.Number,
  role: Schema.Literal("user", "assistant"),
  text: Schema.String,
  intent: Schema.NullOr(Schema.Unknown)
})
export type MessageRow = typeof MessageRow.Type

export const CloserFiguresRow = Schema.Struct({
  calls: Schema.Number,
  scored: Schema.Number,
  average: Schema.NullOr(Schema.Number),
  talk_ratio: Schema.NullOr(Schema.Number)
})

export const DimensionRow = Schema.Struct({ dimension: Schema.String, average: Schema.Number, calls: Schema.Number })

export const RankedCallRow = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  overall: Schema.Number,
  created_at: IsoTimestamp,
  completed_at: NullableIsoTimestamp
})
export type RankedCallRow = typeof RankedCallRow.Type

export const WinRateRow = Schema.Struct({
  segment: Schema.String,
  won: Schema.Number,
  lost: Schema.Number,
  no_decision: Schema.Number,
  open: Schema.Number
})
export type WinRateRow = typeof WinRateRow.Type

/** The messages a conversation's context is read from: its last few. */
export const CONTEXT_MESSAGES = 12

/** What an answer that quoted a deleted call says instead. */
export const FORGOTTEN = "(This answer quoted a call that has since been deleted.)"

export class ConversationRepo extends Effect.Service<ConversationRepo>()("ConversationRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Whether the user has this conversation at this door. */
    const owns = Rows.single({
      Request: Schema.Struct({ ...TenantUser.fields, conversationId: Schema.String, door: Schema.String }),
      Result: Schema.Struct({ exists: Schema.Boolean }),
      execute: (r) =>
        sql`SELECT EXISTS (SELECT 1 FROM conversations WHERE conversation_id = ${r.conversationId}
              AND client_id = ${r.clientId} AND user_id = ${r.userId} AND door = ${r.door}) AS exists`
    })

    const create = Rows.execute({
      Request: Schema.Struct({ ...TenantUser.fields, conversationId: Schema.String, door: Schema.String }),
      execute: (r) =>
        sql`INSERT INTO conversations (conversation_id, client_id, user_id, door)
            VALUES (${r.conversationId}, ${r.clientId}, ${r.userId}, ${r.door})`
    })

    /** The conversation's last messages, oldest first. */
    const recent = Rows.findAll({
      Request: Schema.Struct({ conversationId: Schema.String, limit: Schema.Number }),
      Result: MessageRow,
      execute: (r) =>
        sql`SELECT seq, role, text, intent FROM (
              SELECT seq, role, text, intent FROM conversation_messages WHERE conversation_id = ${r.conversationId}
              ORDER BY seq DESC LIMIT ${r.limit}) m
            ORDER BY seq`
    })

    /** Appends the question and its answer, after the conversation's last message. */
    const append = Rows.execute({
      Request: Schema.Struct({
        conversationId: Schema.String,
        question: Schema.String,
        reply: Schema.String,
        intent: Schema.NullOr(Schema.String),
        sources: Schema.String
      }),
      execute: (r) =>
        sql`WITH last AS (SELECT COALESCE(max(seq), 0) AS seq FROM conversation_messages WHERE conversation_id = ${r.conversationId}),
                 bump AS (UPDATE conversations SET updated_at = now() WHERE conversation_id = ${r.conversationId})
            INSERT INTO conversation_messages (conversation_id, seq, role, text, intent, sources)
            SELECT ${r.conversationId}, last.seq + 1, 'user', ${r.question}, NULL, '[]'::jsonb FROM last
            UNION ALL
            SELECT ${r.conversationId}, last.seq + 2, 'assistant', ${r.reply}, ${r.intent}::jsonb, ${r.sources}::jsonb FROM last`
    })

    /** A closer's completed calls made in the range: how many, scored, mean overall, mean talk ratio. */
    const closerFigures = Rows.single({
      Request: Schema.Struct({ ...Range.fields, closerEmail: Schema.String }),
      Result: CloserFiguresRow,
      execute: (r) =>
        sql`SELECT count(*)::int AS calls,
                   count((result -> 'scorecard' ->> 'overall')::float8)::int AS scored,
                   avg((result -> 'scorecard' ->> 'overall')::float8) AS average,
                   avg((result -> 'metrics' ->> 'talk_ratio')::float8) AS talk_ratio
            FROM calls
            WHERE client_id = ${r.clientId} AND status = 'completed' AND lower(closer_email) = lower(${r.closerEmail})
              AND occurred_at >= ${r.from} AND occurred_at < ${r.to}`
    })

    /** The same calls' mean score per assessed dimension. */
    const closerDimensions = Rows.findAll({
      Request: Schema.Struct({ ...Range.fields, closerEmail: Schema.String }),
      Result: DimensionRow,
      execute: (r) =>
        sql`SELECT d ->> 'dimension' AS dimension, avg((d ->> 'score')::float8) AS average, count(*)::int AS calls
            FROM calls, jsonb_array_elements(${Rows.resultArray(sql, null, "scorecard", "dimensions")}) d
            WHERE client_id = ${r.clientId} AND status = 'completed' AND lower(closer_email) = lower(${r.closerEmail})
              AND occurred_at >= ${r.from} AND occurred_at < ${r.to} AND (d ->> 'score') IS NOT NULL
            GROUP BY 1 ORDER BY 2, 1`
    })

    /** Scored completed calls made in the range, lowest or highest overall first. */
    const rankedCalls = Rows.findAll({
      Request: Schema.Struct({ ...Range.fields, sees: SeesSchema, closerEmail: Schema.NullOr(Schema.String), best: Schema.Boolean, limit: Schema.Number }),
      Result: RankedCallRow,
      execute: (r) =>
        sql`SELECT call_id, external_call_id, closer_email, (result -> 'scorecard' ->> 'overall')::float8 AS overall,
                   created_at, completed_at
            FROM calls c
            WHERE client_id = ${r.clientId} AND status = 'completed' AND occurred_at >= ${r.from} AND occurred_at < ${r.to}
              AND (result -> 'scorecard' ->> 'overall') IS NOT NULL AND ${seenBy(sql, r.sees, "c.closer_email")}
              AND (${r.closerEmail}::text IS NULL OR lower(closer_email) = lower(${r.closerEmail}))
            ORDER BY CASE WHEN ${r.best} THEN -(result -> 'scorecard' ->> 'overall')::float8
                          ELSE (result -> 'scorecard' ->> 'overall')::float8 END, occurred_at DESC, call_id
            LIMIT ${r.limit}`
    })

    /**
     * Outcomes recorded on the tenant's calls (test outcomes left out), by segment: the lead
     * source as market intelligence reads it (`market_intel_call_facts`: the hygiene mark, else the
     * outcome's, else the tenant's only lead source, else "unknown"), the closer, or all together.
     * With a range, only calls made in it.
     */
    const winRates = Rows.findAll({
      Request: Schema.Struct({
        clientId: ClientId,
        sees: SeesSchema,
        by: Schema.Literal("overall", "lead_source", "closer"),
        from: Schema.NullOr(Schema.DateFromSelf),
        to: Schema.NullOr(Schema.DateFromSelf)
      }),
      Result: WinRateRow,
      execute: (r) =>
        sql`SELECT CASE ${r.by} WHEN 'lead_source' THEN f.lead_source
                                WHEN 'closer' THEN COALESCE(f.closer_email, 'no closer')
                                ELSE 'all' END AS segment,
                   count(*) FILTER (WHERE f.outcome = 'won')::int AS won,
                   count(*) FILTER (WHERE f.outcome = 'lost')::int AS lost,
                   count(*) FILTER (WHERE f.outcome = 'no_decision')::int AS no_decision,
                   count(*) FILTER (WHERE f.outcome = 'open')::int AS open
            FROM market_intel_call_facts f
            WHERE f.client_id = ${r.clientId} AND f.outcome IS NOT NULL AND NOT f.test_outcome AND ${seenBy(sql, r.sees, "f.closer_email")}
              AND (${r.from}::timestamptz IS NULL OR f.created_at >= ${r.from})
              AND (${r.to}::timestamptz IS NULL OR f.created_at < ${r.to})
            GROUP BY 1 ORDER BY 1`
    })

    /**
     * A deleted call's words leave the tenant's conversations: an answer that quoted it (its sources
     * name the call) keeps its place in the history with a sentence saying so, and no sources.
     */
    const forgetCall = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, callId: Schema.String }),
      execute: ({ callId, clientId }) =>
        sql`UPDATE conversation_messages m SET text = ${FORGOTTEN}, sources = '[]'::jsonb
            FROM conversations c
            WHERE c.conversation_id = m.conversation_id AND c.client_id = ${clientId}
              AND m.sources @> ${JSON.stringify([{ kind: "call", id: callId }])}::jsonb`
    })

    /** The tenant's accounts (buyer companies), as the intent rules match names: newest first, at most 500. */
    const accounts = Rows.findAll({
      Request: Schema.Struct({ clientId: Schema.String }),
      Result: Schema.Struct({ name: Schema.String, domain: Schema.NullOr(Schema.String) }),
      execute: ({ clientId }) => sql`SELECT name, domain FROM accounts WHERE client_id = ${clientId} ORDER BY created_at DESC LIMIT 500`
    })

    return {
      forgetCall,
      accounts: (clientId: ClientId) => Effect.orDie(accounts({ clientId })),
      owns: (clientId: ClientId, userId: UserId, conversationId: string, door: Door) =>
        owns({ clientId, userId, conversationId, door }).pipe(Effect.map((r) => r.exists), Effect.orDie),
      create: (clientId: ClientId, userId: UserId, conversationId: string, door: Door) =>
        Effect.orDie(create({ clientId, userId, conversationId, door })),
      recent: (conversationId: string) => Effect.orDie(recent({ conversationId, limit: CONTEXT_MESSAGES })),
      append: (r: {
        readonly conversationId: string
        readonly question: string
        readonly reply: string
        readonly intent: unknown
        readonly sources: ReadonlyArray<unknown>
      }) =>
        Effect.orDie(append({
          conversationId: r.conversationId,
          question: r.question,
          reply: r.reply,
          intent: r.intent === null || r.intent === undefined ? null : JSON.stringify(r.intent),
          sources: JSON.stringify(r.sources)
        })),
      closerFigures: (clientId: ClientId, closerEmail: string, from: Date, to: Date) =>
        Effect.orDie(Effect.all([
          closerFigures({ clientId, closerEmail, from, to }),
          closerDimensions({ clientId, closerEmail, from, to })
        ])),
      /** Ranked calls of those `viewer` sees (a rep: their own). */
      rankedCalls: (viewer: Viewer, r: { readonly from: Date; readonly to: Date; readonly best: boolean; readonly limit: number; readonly closerEmail: string | null }) =>
        Effect.orDie(rankedCalls({ ...viewer, ...r })),
      /** Win rates over the outcomes of the calls `viewer` sees (a rep: their own). */
      winRates: (viewer: Viewer, by: "overall" | "lead_source" | "closer", range: { readonly from: Date; readonly to: Date } | null) =>
        Effect.orDie(winRates({ ...viewer, by, from: range?.from ?? null, to: range?.to ?? null }))
    } as const
  })
}) {}
