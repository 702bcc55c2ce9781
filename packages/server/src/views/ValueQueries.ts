/**
 * What the value views read (customer value, ROI digest, review pack, daily brief): figures over
 * the tenant's completed calls in a period (by `completed_at`), their outcome truth (test data
 * left out), the market profile and the plan. Each query takes the tenant first; instants travel
 * as ISO-8601 strings.
 */
import { CallId, ClientId, CloserId, Plan, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"
import { TREND_FACT } from "./TrendsQueries.js"

/** A period of the tenant's calls, of those `sees` sees (a rep: their own; `Sees.ts`). */
const Period = Schema.Struct({ clientId: ClientId, sees: SeesSchema, from: Schema.String, to: Schema.String })
export type Period = typeof Period.Type

const Figures = Schema.Struct({
  calls_analysed: Schema.Number,
  hours_analysed: Schema.Number,
  coaching_moments: Schema.Number,
  average_score: Schema.NullOr(Schema.Number)
})

const Outcomes = Schema.Struct({
  recorded: Schema.Number,
  won: Schema.Number,
  lost: Schema.Number,
  won_value_mean: Schema.NullOr(Schema.Number),
  won_valued: Schema.Number
})

const Week = Schema.Struct({ period_start: Schema.String, calls: Schema.Number, average_score: Schema.NullOr(Schema.Number) })

/** The market profile's figures the views use, and the tenant's plan. */
const Settings = Schema.Struct({
  plan: Plan,
  average_deal_size: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  sales_cycle_days: Schema.NullOr(Schema.Number),
  time_zone: Schema.NullOr(Schema.String),
  /** When the tenant's first completed call took place (`occurred_at`): the start of its baseline month. */
  first_completed_at: NullableIsoTimestamp
})

const Progress = Schema.Struct({
  email: Schema.String,
  closer_id: Schema.NullOr(CloserId),
  full_name: Schema.NullOr(Schema.String),
  calls: Schema.Number,
  average_score: Schema.NullOr(Schema.Number),
  previous_score: Schema.NullOr(Schema.Number),
  weakest_dimension: Schema.NullOr(Schema.Literal("discovery", "listening", "objection_handling", "value", "next_steps", "conversation_flow")),
  won: Schema.Number,
  lost: Schema.Number
})

const ReviewCandidate = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  overall_score: Schema.NullOr(Schema.Number),
  outcome: Schema.NullOr(Schema.Literal("won", "lost", "no_decision", "open")),
  why: Schema.Literal("lowest", "lost")
})

/** An objection as the analysis keeps it, for the brief's notable moments. */
const ObjectionSeen = Schema.Struct({
  kind: Schema.String,
  at: Schema.Number,
  quote: Schema.String,
  response: Schema.String
})

const BriefCallRow = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  status: Schema.Literal("queued", "processing", "completed", "failed"),
  created_at: IsoTimestamp,
  duration_s: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number),
  objections: Schema.NullOr(Schema.Array(ObjectionSeen))
})

const OpenDeal = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  completed_at: IsoTimestamp,
  age_days: Schema.Number,
  next_steps: Schema.Number,
  unexplored_objections: Schema.Number,
  outcome: Schema.NullOr(Schema.Literal("open"))
})

const OutcomeMissing = Schema.Struct({
  call_id: CallId,
  closer_email: Schema.NullOr(Schema.String),
  completed_at: IsoTimestamp
})

const PendingCloser = Schema.Struct({ closer_id: CloserId, email: Schema.String })

/** `(c.result -> 'scorecard' ->> 'overall')::float8`, generated (migration 0024). */
const overall = "c.overall_score"

/**
 * `ValueViews.openDealRisk`'s rule in SQL, as a rank to order by (0 high, 1 medium, 2 low), over a
 * row's `outcome`, `age_days`, `next_steps` and `unexplored_objections`: past the sales cycle
 * (`salesCycleDays`, none when null), or no next step with an objection left unexplored, is high; no
 * next step is medium. `lowScore`, when given, raises low to medium where its score is below it
 * (deal intelligence's call risk, `overall_score`). The daily brief and deal intelligence order by it.
 */
export const openDealRiskRank = (sql: SqlClient.SqlClient, salesCycleDays: number | null, lowScore: number | null = null) =>
  sql`CASE WHEN COALESCE(outcome = 'open' AND age_days > ${salesCycleDays}::float8, false)
                OR (next_steps = 0 AND unexplored_objections > 0) THEN 0
           WHEN next_steps = 0 ${lowScore === null ? sql`` : sql`OR overall_score < ${lowScore}::float8`} THEN 1
           ELSE 2 END`

export class ValueQueries extends Effect.Service<ValueQueries>()("ValueQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const inPeriod = (p: { readonly clientId: string; readonly sees: Sees; readonly from: string; readonly to: string }) =>
      sql`c.client_id = ${p.clientId} AND c.status = 'completed' AND c.occurred_at >= ${p.from}::timestamptz AND c.occurred_at < ${p.to}::timestamptz
          AND ${seenBy(sql, p.sees, "c.closer_email")}`

    /** Calls analysed, their hours, the moments that cost points, the average overall score. */
    const figures = Rows.single({
      Request: Period,
      Result: Figures,
      execute: (p) =>
        sql`SELECT count(*)::int AS calls_analysed,
                   COALESCE(sum(c.duration_s), 0)::float8 / 3600 AS hours_analysed,
                   COALESCE(sum((SELECT count(*) FROM jsonb_array_elements(${Rows.resultArray(sql, "c", "evidence")}) e
                     WHERE (e ->> 'effect')::float8 < 0)), 0)::int AS coaching_moments,
                   avg(${sql.literal(overall)}) AS average_score
            FROM calls c WHERE ${inPeriod(p)}`
    })

    /** The period's weeks (Monday, UTC), oldest first, with their calls and average score. */
    const weeks = Rows.findAll({
      Request: Period,
      Result: Week,
      execute: (p) =>
        sql`SELECT to_char(w.start, 'YYYY-MM-DD') AS period_start, count(c.call_id)::int AS calls,
                   avg(${sql.literal(overall)}) AS average_score
            FROM generate_series(date_trunc('week', ${p.from}::timestamptz AT TIME ZONE 'UTC'),
                                 ${p.to}::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond', interval '1 week') AS w(start)
            LEFT JOIN calls c ON ${inPeriod(p)}
              AND c.occurred_at >= w.start AT TIME ZONE 'UTC' AND c.occurred_at < (w.start + interval '1 week') AT TIME ZONE 'UTC'
            GROUP BY w.start ORDER BY w.start`
    })

    /** The outcome truth of the period's calls: recorded, won, lost, and the mean value of won deals. */
    const outcomes = Rows.single({
      Request: Period,
      Result: Outcomes,
      execute: (p) =>
        sql`SELECT count(o.call_id)::int AS recorded,
                   count(*) FILTER (WHERE o.outcome = 'won')::int AS won,
                   count(*) FILTER (WHERE o.outcome = 'lost')::int AS lost,
                   avg(o.deal_value) FILTER (WHERE o.outcome = 'won') AS won_value_mean,
                   count(o.deal_value) FILTER (WHERE o.outcome = 'won')::int AS won_valued
            FROM outcome_truth o JOIN calls c ON c.call_id = o.call_id
            WHERE ${inPeriod(p)} AND o.client_id = ${p.clientId} AND NOT o.is_test_data`
    })

    const settings = Rows.single({
      Request: ClientId,
      Result: Settings,
      execute: (clientId) =>
        sql`SELECT t.plan,
                   (m.profile ->> 'average_deal_size')::float8 AS average_deal_size,
                   m.profile ->> 'currency' AS currency,
                   (m.profile ->> 'sales_cycle_days')::int AS sales_cycle_days,
                   m.profile ->> 'time_zone' AS time_zone,
                   (SELECT min(occurred_at) FROM calls WHERE client_id = ${clientId} AND status = 'completed') AS first_completed_at
            FROM tenants t LEFT JOIN market_profiles m ON m.client_id = t.client_id
            WHERE t.client_id = ${clientId}`
    })

    /** Per closer e-mail (calls with one): the period's calls, scores, weakest dimension and outcomes. */
    const closerProgress = Rows.findAll({
      Request: Schema.Struct({ ...Period.fields, previousFrom: Schema.String }),
      Result: Progress,
      execute: (p) =>
        sql`WITH cur AS (
                SELECT lower(c.closer_email) AS email, count(*)::int AS calls, avg(${sql.literal(overall)}) AS average_score
                FROM calls c WHERE ${inPeriod(p)} AND c.closer_email IS NOT NULL GROUP BY 1),
              prev AS (
                SELECT lower(c.closer_email) AS email, avg(${sql.literal(overall)}) AS average_score
                FROM calls c WHERE ${inPeriod({ clientId: p.clientId, sees: p.sees, from: p.previousFrom, to: p.from })}
                  AND c.closer_email IS NOT NULL GROUP BY 1),
              dims AS (
                SELECT lower(c.closer_email) AS email, d ->> 'dimension' AS dimension, avg((d ->> 'score')::float8) AS score
                FROM calls c, jsonb_array_elements(c.digest -> 'scorecard' -> 'dimensions') d
                WHERE ${inPeriod(p)} AND c.closer_email IS NOT NULL AND jsonb_typeof(c.digest -> 'scorecard' -> 'dimensions') = 'array'
                  AND (d ->> 'assessed')::boolean AND d ->> 'score' IS NOT NULL
                GROUP BY 1, 2),
              weakest AS (SELECT DISTINCT ON (email) email, dimension FROM dims ORDER BY email, score, dimension),
              results AS (
                SELECT lower(c.closer_email) AS email,
                       count(*) FILTER (WHERE o.outcome = 'won')::int AS won, count(*) FILTER (WHERE o.outcome = 'lost')::int AS lost
                FROM outcome_truth o JOIN calls c ON c.call_id = o.call_id
                WHERE ${inPeriod(p)} AND c.closer_email IS NOT NULL AND NOT o.is_test_data GROUP BY 1)
            SELECT cur.email, cl.closer_id, cl.full_name, cur.calls, cur.average_score, prev.average_score AS previous_score,
                   weakest.dimension AS weakest_dimension, COALESCE(results.won, 0) AS won, COALESCE(results.lost, 0) AS lost
            FROM cur
            LEFT JOIN closers cl ON cl.client_id = ${p.clientId} AND lower(cl.email) = cur.email
            LEFT JOIN prev ON prev.email = cur.email
            LEFT JOIN weakest ON weakest.email = cur.email
            LEFT JOIN results ON results.email = cur.email
            ORDER BY cur.average_score ASC NULLS LAST, cur.email`
    })

    /** The period's lowest-scored calls, and its lost deals, lowest score first (5 each). */
    const reviewCandidates = Rows.findAll({
      Request: Period,
      Result: ReviewCandidate,
      execute: (p) =>
        sql`(SELECT c.call_id, c.external_call_id, c.closer_email, c.created_at, ${sql.literal(overall)} AS overall_score,
                    o.outcome, 'lowest' AS why
             FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id AND NOT o.is_test_data
             WHERE ${inPeriod(p)} AND ${sql.literal(overall)} IS NOT NULL
             ORDER BY ${sql.literal(overall)}, c.call_id LIMIT 5)
            UNION ALL
            (SELECT c.call_id, c.external_call_id, c.closer_email, c.created_at, ${sql.literal(overall)} AS overall_score,
                    o.outcome, 'lost' AS why
             FROM calls c JOIN outcome_truth o ON o.call_id = c.call_id AND NOT o.is_test_data AND o.outcome = 'lost'
             WHERE ${inPeriod(p)}
             ORDER BY ${sql.literal(overall)} NULLS LAST, c.call_id LIMIT 5)`
    })

    /** The calls created in [from, to), whatever their status, oldest first. */
    const callsCreated = Rows.findAll({
      Request: Period,
      Result: BriefCallRow,
      execute: (p) =>
        sql`SELECT c.call_id, c.external_call_id, c.closer_email, c.status, c.created_at, c.duration_s, ${sql.literal(overall)} AS overall_score,
                   CASE WHEN jsonb_typeof(c.digest -> 'objections') = 'array' THEN c.digest -> 'objections' END AS objections
            FROM calls c
            WHERE c.client_id = ${p.clientId} AND c.created_at >= ${p.from}::timestamptz AND c.created_at < ${p.to}::timestamptz
              AND ${seenBy(sql, p.sees, "c.closer_email")}
            ORDER BY c.created_at, c.call_id`
    })

    /**
     * Completed calls whose meeting was in the last `days` days (`occurred_at`) whose deal is not decided (no outcome, or `open`),
     * with how many next steps they agreed and how many objections were left unexplored: the first `limit` with a reason to
     * be at risk (`ValueViews.openDealRisk`, whose rule this orders by: high, then medium, then low; newest first within).
     * The counts are `calls.trend_facts`' (migration 0025, `TREND_FACT`: next steps, objections answered `other`, a
     * transcript), the digest's numbers kept beside it: the 30 days' calls are read from an index, not decompressed.
     */
    const openDeals = Rows.findAll({
      Request: Schema.Struct({
        clientId: ClientId,
        sees: SeesSchema,
        days: Schema.Number,
        salesCycleDays: Schema.NullOr(Schema.Number),
        limit: Schema.Number
      }),
      Result: OpenDeal,
      execute: ({ clientId, days, limit, salesCycleDays, sees }) =>
        sql`WITH d AS (
              SELECT c.call_id, c.occurred_at, floor(extract(epoch FROM now() - c.occurred_at) / 86400)::int AS age_days,
                     COALESCE(c.trend_facts[${sql.literal(String(TREND_FACT.said))}], 0)::int AS next_steps,
                     COALESCE(c.trend_facts[${sql.literal(String(TREND_FACT.unexplored))}], 0)::int AS unexplored_objections,
                     o.outcome
              FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
              WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.occurred_at > now() - make_interval(days => ${days})
                AND (o.outcome IS NULL OR o.outcome = 'open')
                AND c.trend_facts[${sql.literal(String(TREND_FACT.transcript))}] = 1 AND ${seenBy(sql, sees, "c.closer_email")}),
            r AS (SELECT d.*, ${openDealRiskRank(sql, salesCycleDays)} AS risk_rank FROM d),
            -- with a reason: at risk (high or medium), or an objection unexplored
            top AS (
              SELECT r.* FROM r WHERE risk_rank < 2 OR unexplored_objections > 0
              ORDER BY risk_rank, occurred_at DESC, call_id LIMIT ${limit})
            SELECT c.call_id, c.external_call_id, c.closer_email, c.completed_at, top.age_days, top.next_steps,
                   top.unexplored_objections, top.outcome
            FROM top JOIN calls c ON c.call_id = top.call_id
            ORDER BY top.risk_rank, top.occurred_at DESC, top.call_id`
    })

    /** Completed calls whose meeting is older than `days` days without an outcome, oldest first (3). */
    const outcomesMissing = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, sees: SeesSchema, days: Schema.Number }),
      Result: OutcomeMissing,
      execute: ({ clientId, days, sees }) =>
        sql`SELECT c.call_id, c.closer_email, c.completed_at FROM calls c
            WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.occurred_at < now() - make_interval(days => ${days})
              AND ${seenBy(sql, sees, "c.closer_email")}
              AND NOT EXISTS (SELECT 1 FROM outcome_truth o WHERE o.call_id = c.call_id)
            ORDER BY c.occurred_at, c.call_id LIMIT 3`
    })

    const pendingClosers = Rows.findAll({
      Request: ClientId,
      Result: PendingCloser,
      execute: (clientId) =>
        sql`SELECT closer_id, email FROM closers WHERE client_id = ${clientId} AND status = 'pending_verification'
            ORDER BY created_at, closer_id LIMIT 3`
    })

    return {
      figures,
      weeks,
      outcomes,
      settings,
      closerProgress,
      reviewCandidates,
      callsCreated,
      openDeals,
      outcomesMissing,
      pendingClosers
    } as const
  })
}) {}
