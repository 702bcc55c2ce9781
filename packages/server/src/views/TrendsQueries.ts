/**
 * What the trends view reads (views/Trends.ts; docs/trends.md): the completed calls that took place
 * in a window (`calls.occurred_at`, migration 0022), with the parts of their analysis the trends
 * count (objections' kinds, next steps' dues, the summary's needs' kinds, the scorecard); the
 * mentions of the Competitors tracker stored for those calls (`tracker_mentions` of the tracker whose
 * `source` is `market_profile`, migration 0021: read here, never matched here); the tenant's
 * closers; and, for market intelligence, the same across tenants with each call's segment
 * (`market_intel_call_facts`, migration 0011). Every tenant read takes the tenant's id; rows are
 * decoded by Schema.
 */
import type { ClientId, Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { seenBy, SeesSchema } from "../tenancy/Sees.js"

/** A completed call as the trends count it. */
export const TrendCallRow = Schema.Struct({
  call_id: Schema.String,
  closer_email: Schema.NullOr(Schema.String),
  occurred_at: Rows.IsoTimestamp,
  deal_id: Schema.NullOr(Schema.String),
  objections: Schema.Array(Schema.Struct({ kind: Schema.String })),
  next_steps: Schema.Array(Schema.Struct({ due: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }) })),
  needs: Schema.Array(Schema.Struct({ kind: Schema.String })),
  overall: Schema.NullOr(Schema.Number),
  dimensions: Schema.Array(Schema.Struct({ dimension: Schema.String, score: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }) }))
})
export type TrendCallRow = typeof TrendCallRow.Type

/** A stored mention of the market profile's competitors in a completed call. */
export const CompetitorMentionRow = Schema.Struct({ call_id: Schema.String, term: Schema.String })
export type CompetitorMentionRow = typeof CompetitorMentionRow.Type

/** A call of a deal, as the next steps' follow-through reads it (`DealTimeline.stepFollowThrough`). */
export const DealStepRow = Schema.Struct({
  call_id: Schema.String,
  deal_id: Schema.String,
  occurred_at: Rows.IsoTimestamp,
  next_steps: Schema.Array(Schema.Struct({
    quote: Schema.optionalWith(Schema.String, { default: () => "" }),
    due: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
  }))
})
export type DealStepRow = typeof DealStepRow.Type

export const TrendCloserRow = Schema.Struct({ closer_id: Schema.String, email: Schema.String, full_name: Schema.NullOr(Schema.String) })
export type TrendCloserRow = typeof TrendCloserRow.Type

/** A call of any (non-test) tenant with its market-intelligence segment, for the per-segment trends. */
export const SegmentCallRow = Schema.Struct({
  call_id: Schema.String,
  client_id: Schema.String,
  industry: Schema.String,
  icp: Schema.String,
  occurred_at: Rows.IsoTimestamp,
  objections: Schema.Array(Schema.Struct({ kind: Schema.String }))
})
export type SegmentCallRow = typeof SegmentCallRow.Type

export const SegmentMentionRow = Schema.Struct({ call_id: Schema.String, client_id: Schema.String, term: Schema.String })
export type SegmentMentionRow = typeof SegmentMentionRow.Type

const Window = {
  clientId: Schema.String,
  sees: SeesSchema,
  from: Schema.String,
  to: Schema.String,
  closerEmail: Schema.NullOr(Schema.String)
}

export class TrendsQueries extends Effect.Service<TrendsQueries>()("TrendsQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // from the calls' digest (migration 0024): the parts of `result` counted here, at the same paths
    const dims = Rows.digestArray(sql, "c", "scorecard", "dimensions")
    const needs = Rows.digestArray(sql, "c", "summary", "needs")

    const calls = Rows.findAll({
      Request: Schema.Struct(Window),
      Result: TrendCallRow,
      execute: (r) =>
        sql`SELECT c.call_id, c.closer_email, c.occurred_at, c.deal_id,
                   ${Rows.digestArray(sql, "c", "objections")} AS objections,
                   ${Rows.digestArray(sql, "c", "next_steps")} AS next_steps,
                   ${needs} AS needs,
                   CASE WHEN jsonb_typeof(c.digest -> 'scorecard' -> 'overall') = 'number'
                        THEN (c.digest -> 'scorecard' ->> 'overall')::float8 END AS overall,
                   ${dims} AS dimensions
            FROM calls c
            WHERE c.client_id = ${r.clientId} AND c.status = 'completed'
              AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz
              AND ${seenBy(sql, r.sees as Sees, "c.closer_email")}
              AND (${r.closerEmail}::text IS NULL OR lower(c.closer_email) = lower(${r.closerEmail}))
            ORDER BY c.occurred_at DESC, c.call_id DESC`
    })

    const competitorMentions = Rows.findAll({
      Request: Schema.Struct(Window),
      Result: CompetitorMentionRow,
      execute: (r) =>
        sql`SELECT m.call_id, m.term
            FROM tracker_mentions m
            JOIN trackers t ON t.tracker_id = m.tracker_id AND t.client_id = m.client_id AND t.source = 'market_profile'
            JOIN calls c ON c.call_id = m.call_id AND c.client_id = m.client_id
            WHERE m.client_id = ${r.clientId} AND c.status = 'completed'
              AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz
              AND ${seenBy(sql, r.sees as Sees, "c.closer_email")}
              AND (${r.closerEmail}::text IS NULL OR lower(c.closer_email) = lower(${r.closerEmail}))
            ORDER BY c.occurred_at DESC, c.call_id DESC, m.ord`
    })

    /** Every completed call of these deals of the tenant (before, in and after the window: a later call keeps a step). */
    const dealCalls = Rows.findAll({
      Request: Schema.Struct({ clientId: Schema.String, dealIds: Schema.Array(Schema.String) }),
      Result: DealStepRow,
      execute: (r) =>
        sql`SELECT c.call_id, c.deal_id, c.occurred_at, ${Rows.digestArray(sql, "c", "next_steps")} AS next_steps
            FROM calls c
            WHERE c.client_id = ${r.clientId} AND c.status = 'completed'
              AND c.deal_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(r.dealIds)}::jsonb))
            ORDER BY c.deal_id, c.occurred_at, c.call_id`
    })

    const closers = Rows.findAll({
      Request: Schema.String,
      Result: TrendCloserRow,
      execute: (clientId) =>
        sql`SELECT closer_id, email, full_name FROM closers WHERE client_id = ${clientId} ORDER BY lower(email), closer_id`
    })

    /** Completed calls of the tenants market intelligence counts (no test tenant, no excluded call) in [from, to). */
    const segmentCalls = Rows.findAll({
      Request: Schema.Struct({ from: Schema.String, to: Schema.String }),
      Result: SegmentCallRow,
      execute: (r) =>
        sql`SELECT f.call_id, f.client_id, f.industry, f.icp, c.occurred_at, ${Rows.digestArray(sql, "c", "objections")} AS objections
            FROM market_intel_call_facts f JOIN calls c ON c.call_id = f.call_id
            WHERE f.status = 'completed' AND NOT f.tenant_test AND NOT f.excluded
              AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz
            ORDER BY c.occurred_at, c.call_id`
    })

    /** The Competitors trackers' stored mentions in those calls, the term in lower case (tenants spell it their way). */
    const segmentMentions = Rows.findAll({
      Request: Schema.Struct({ from: Schema.String, to: Schema.String }),
      Result: SegmentMentionRow,
      execute: (r) =>
        sql`SELECT m.call_id, m.client_id, lower(m.term) AS term
            FROM tracker_mentions m
            JOIN trackers t ON t.tracker_id = m.tracker_id AND t.source = 'market_profile'
            JOIN calls c ON c.call_id = m.call_id AND c.client_id = m.client_id
            WHERE c.status = 'completed' AND c.occurred_at >= ${r.from}::timestamptz AND c.occurred_at < ${r.to}::timestamptz
            ORDER BY m.call_id, m.ord`
    })

    return {
      calls: (clientId: ClientId, sees: Sees, from: string, to: string, closerEmail: string | null) =>
        Effect.orDie(calls({ clientId, sees, from, to, closerEmail })),
      competitorMentions: (clientId: ClientId, sees: Sees, from: string, to: string, closerEmail: string | null) =>
        Effect.orDie(competitorMentions({ clientId, sees, from, to, closerEmail })),
      dealCalls: (clientId: ClientId, dealIds: ReadonlyArray<string>) =>
        dealIds.length === 0 ? Effect.succeed([]) : Effect.orDie(dealCalls({ clientId, dealIds })),
      closers: (clientId: ClientId) => Effect.orDie(closers(clientId)),
      segmentCalls: (from: string, to: string) => Effect.orDie(segmentCalls({ from, to })),
      segmentMentions: (from: string, to: string) => Effect.orDie(segmentMentions({ from, to }))
    } as const
  })
}) {}
