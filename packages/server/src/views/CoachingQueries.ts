/**
 * What the coaching dashboard reads: the tenant's closers not removed and their completed calls
 * (a closer's calls are the tenant's calls whose `closer_email` is the closer's e-mail, in any
 * case), by Monday week in UTC (by `occurred_at`, when the meeting took place: docs/deals.md), the scorecard
 * dimensions of the last 4 weeks, the calls worth reviewing, and the manual audits (the coaching
 * feature's table, read here). Each query takes the viewer (the tenant, and whose calls it sees:
 * `Sees.ts`); sums and counts travel so that the service averages over calls, not over weeks.
 *
 * A rep's dashboard (issue 36) is the same queries narrowed in SQL with `seenBy`: the closers listed
 * are only the rep's own closer row (none for a member who is no closer), the calls only theirs
 * (`c.closer_email`), the audits only those of their calls (`a.closer_email`: the audited call's
 * closer, copied when audited; a call's closer never changes). So every team figure of a rep's
 * dashboard is over their own calls: nothing of another rep's calls is summed into it.
 */
import { CallId, ClientId, CloserId, DealOutcome, ScorecardDimensionName } from "@callsight/api-spec"
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { seenBy, SeesSchema } from "../tenancy/Sees.js"
import { TREND_FACT, unpackedFacts } from "./TrendsQueries.js"

/** Weeks of the score trend, and weeks of the focus (the weakest dimension) and of the calls to review. */
export const TREND_WEEKS = 8
export const FOCUS_WEEKS = 4

const Closer = Schema.Struct({ closer_id: CloserId, full_name: Schema.String, email: Schema.String })

/** One week of calls: completed calls, those with an overall score, and the sum of those scores. */
const WeekRow = Schema.Struct({
  closer_id: CloserId,
  period_start: Schema.String,
  calls: Schema.Number,
  scored: Schema.Number,
  score_sum: Schema.Number
})
export type WeekRow = typeof WeekRow.Type

/** A closer's assessed scores of one dimension over the focus weeks. */
const DimensionRow = Schema.Struct({
  closer_id: CloserId,
  dimension: Schema.String,
  calls: Schema.Number,
  score_sum: Schema.Number
})
export type DimensionRow = typeof DimensionRow.Type

/** A call worth reviewing: one of a closer's lowest scores (`rank` 1 the lowest), or a large audit gap. */
const ReviewRow = Schema.Struct({
  closer_id: CloserId,
  kind: Schema.Literal("low_score", "audit_gap"),
  rank: Schema.Number,
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  overall_score: Schema.NullOr(Schema.Number),
  outcome: Schema.NullOr(DealOutcome),
  gap: Schema.NullOr(Schema.Number)
})
export type ReviewRow = typeof ReviewRow.Type

const AuditGapRow = Schema.Struct({
  dimension: Schema.String,
  mean_gap: Schema.Number,
  mean_absolute_gap: Schema.Number,
  audits: Schema.Number
})

/** The tenant, and whose calls the read sees (`Sees.ts`'s `Viewer`): what every query of the dashboard takes. */
const Viewer = Schema.Struct({ clientId: ClientId, sees: SeesSchema })

type ViewerQuery = (viewer: typeof Viewer.Encoded) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>
const all = <A, I>(Result: Schema.Schema<A, I>, execute: ViewerQuery) => Rows.findAll({ Request: Viewer, Result, execute })

/** The scorecard's dimensions and where `calls.trend_facts` keeps each one's [sum of scores, count]. */
const TREND_DIMENSIONS = ScorecardDimensionName.literals.map((name) => [name, TREND_FACT[name]] as const)

/** Calls to review per closer: the 3 lowest scores, and the 2 largest audit gaps of 10 points or more. */
export const LOW_SCORES = 3
export const AUDIT_GAPS = 2
export const MIN_AUDIT_GAP = 10

export class CoachingQueries extends Effect.Service<CoachingQueries>()("CoachingQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Monday 00:00 UTC of this week, as a timestamp without zone (UTC). */
    const thisMonday = sql`date_trunc('week', now() AT TIME ZONE 'UTC')`
    /** Per scorecard dimension (`TREND_FACT`) the sum of its scores and how many, over a group's `calls.trend_facts` unpacked (`unpackedFacts`). */
    const factSums = sql.literal(
      TREND_DIMENSIONS.map(([name, [scores, count]]) =>
        `COALESCE(sum(x.tf[${scores}]), 0)::float8 AS ${name}_s, COALESCE(sum(x.tf[${count}]), 0)::float8 AS ${name}_n`
      ).join(", ")
    )
    /** Those sums as one row per dimension: (name, calls, sum). */
    const factRows = sql.literal(TREND_DIMENSIONS.map(([name]) => `('${name}', f.${name}_n, f.${name}_s)`).join(", "))
    /** The start of the focus weeks, as an instant. */
    const focusStart = sql`((${thisMonday} - make_interval(weeks => ${FOCUS_WEEKS - 1})) AT TIME ZONE 'UTC')`

    /** The closers of the tenant not removed that the viewer sees (a rep: their own). */
    const team = ({ clientId, sees }: typeof Viewer.Encoded) =>
      sql`SELECT closer_id, full_name, email FROM closers
          WHERE client_id = ${clientId} AND status <> 'removed' AND ${seenBy(sql, sees, "email")}`

    /**
     * The completed calls the viewer sees since `from` (an instant), with the lowered e-mail of their
     * closer (a call is the closer's whose e-mail is its `closer_email` in any case; closers are
     * unique on it, so a call is at most one closer's). Each read aggregates these by closer e-mail
     * first and joins the team (a few rows) last: at 100,000 calls the window is thousands of calls.
     */
    const windowCalls = (v: typeof Viewer.Encoded, from: Statement.Fragment) =>
      sql`SELECT lower(c.closer_email) AS email, c.call_id, c.external_call_id, c.closer_email, c.created_at, c.occurred_at, c.overall_score
          FROM calls c
          WHERE c.client_id = ${v.clientId} AND c.status = 'completed' AND c.occurred_at >= ${from}
            AND c.closer_email IS NOT NULL AND ${seenBy(sql, v.sees, "c.closer_email")}`

    const closers = all(Closer, (v) => sql`${team(v)} ORDER BY lower(full_name), lower(email), closer_id`)

    /** This week's Monday (YYYY-MM-DD, UTC) and the trend's weeks, oldest first. */
    const weeks = all(Schema.Struct({ period_start: Schema.String }), () =>
      sql`SELECT to_char(w.start, 'YYYY-MM-DD') AS period_start
          FROM generate_series(${thisMonday} - make_interval(weeks => ${TREND_WEEKS - 1}), ${thisMonday}, interval '1 week') AS w(start)
          ORDER BY w.start`)

    /** Each closer's weeks of the trend that have calls. */
    const trend = all(WeekRow, (v) =>
      sql`SELECT t.closer_id, to_char(w.week, 'YYYY-MM-DD') AS period_start, w.calls, w.scored, w.score_sum
          FROM (${team(v)}) t
          JOIN (SELECT c.email, date_trunc('week', c.occurred_at AT TIME ZONE 'UTC') AS week,
                       count(*)::int AS calls,
                       count(c.overall_score)::int AS scored,
                       COALESCE(sum(c.overall_score), 0)::float8 AS score_sum
                FROM (${windowCalls(v, sql`(${thisMonday} - make_interval(weeks => ${TREND_WEEKS - 1})) AT TIME ZONE 'UTC'`)}) c
                GROUP BY 1, 2) w ON w.email = lower(t.email)
          ORDER BY 1, 2`)

    /**
     * Each closer's assessed dimension scores over the focus weeks: the sums of `calls.trend_facts`
     * (migration 0025: per dimension the sum of its numeric scores and how many; `TREND_FACT`), read
     * with the window from `calls_trends_idx` (no digest decompressed), summed by closer e-mail.
     * `trend_facts` counts every numeric score and the dashboard only those assessed: the calls
     * whose digest holds a numeric score whose `assessed` is not plainly true (migration 0028:
     * `calls_dims_unassessed`, their partial index; none from the engine, whose dimensions not
     * assessed have no score) have their facts taken back and their digest's dimensions counted by
     * the dashboard's rule, as before.
     */
    const dimensions = all(DimensionRow, (v) => {
      const window = sql`c.client_id = ${v.clientId} AND c.status = 'completed' AND c.occurred_at >= ${focusStart}
                         AND c.closer_email IS NOT NULL AND ${seenBy(sql, v.sees, "c.closer_email")}`
      return sql`WITH facts AS (
              SELECT lower(c.closer_email) AS email, ${factSums}
              FROM calls c, ${unpackedFacts(sql, "c")} WHERE ${window} GROUP BY 1),
            odd AS (
              SELECT lower(c.closer_email) AS email, ${factSums}
              FROM calls c, ${unpackedFacts(sql, "c")} WHERE ${window} AND calls_dims_unassessed(c.digest) GROUP BY 1),
            odd_digest AS (
              SELECT lower(c.closer_email) AS email, d ->> 'dimension' AS dimension, count(*)::float8 AS calls,
                     sum((d ->> 'score')::float8)::float8 AS score_sum
              FROM calls c
              -- the dimensions taken from the digest once (each arrow on the column decompresses it again)
              CROSS JOIN LATERAL (SELECT c.digest -> 'scorecard' -> 'dimensions' AS dimensions OFFSET 0) s
              CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s.dimensions) = 'array' THEN s.dimensions ELSE '[]'::jsonb END) AS d
              WHERE ${window} AND calls_dims_unassessed(c.digest)
                AND jsonb_typeof(d -> 'score') = 'number' AND COALESCE((d ->> 'assessed')::boolean, true)
              GROUP BY 1, 2),
            parts AS (
              SELECT f.email, d.dimension, d.calls, d.score_sum FROM facts f CROSS JOIN LATERAL (VALUES ${factRows}) AS d(dimension, calls, score_sum)
              UNION ALL
              SELECT f.email, d.dimension, -d.calls, -d.score_sum FROM odd f CROSS JOIN LATERAL (VALUES ${factRows}) AS d(dimension, calls, score_sum)
              UNION ALL
              SELECT email, dimension, calls, score_sum FROM odd_digest)
          SELECT t.closer_id, x.dimension, x.calls, x.score_sum
          FROM (${team(v)}) t
          JOIN (SELECT email, dimension, sum(calls)::int AS calls, sum(score_sum)::float8 AS score_sum
                FROM parts GROUP BY 1, 2 HAVING sum(calls) > 0) x ON x.email = lower(t.email)
          ORDER BY 1, 2`
    })

    /**
     * The focus weeks' calls worth reviewing, per closer: the lowest overall scores (latest first
     * among equals), and the calls whose manual audits are furthest from the machine (the largest
     * mean absolute gap of an audit of the call). The outcome is looked up for the calls picked only.
     */
    const toReview = all(ReviewRow, (v) =>
      sql`WITH recent AS (
            SELECT t.closer_id, c.call_id, c.external_call_id, c.closer_email, c.created_at, c.occurred_at, c.overall_score
            FROM (${team(v)}) t JOIN (${windowCalls(v, focusStart)}) c ON c.email = lower(t.email)
          ),
          low AS (
            SELECT r.*, row_number() OVER (PARTITION BY r.closer_id ORDER BY r.overall_score, r.occurred_at DESC, r.call_id) AS rank
            FROM recent r WHERE r.overall_score IS NOT NULL
          ),
          gaps AS (
            SELECT a.call_id, max(a.gap) AS gap
            FROM (SELECT a.audit_id, a.call_id, avg(abs(s.value::float8 - (a.automated ->> s.key)::float8)) AS gap
                  FROM manual_audits a CROSS JOIN LATERAL jsonb_each_text(a.scores) AS s
                  WHERE a.client_id = ${v.clientId} AND a.automated ->> s.key IS NOT NULL
                  GROUP BY a.audit_id, a.call_id) a
            GROUP BY a.call_id
          ),
          wide AS (
            SELECT r.*, g.gap, row_number() OVER (PARTITION BY r.closer_id ORDER BY g.gap DESC, r.occurred_at DESC, r.call_id) AS rank
            FROM recent r JOIN gaps g ON g.call_id = r.call_id WHERE g.gap >= ${MIN_AUDIT_GAP}
          ),
          picked AS (
            SELECT closer_id, 'low_score' AS kind, rank::int AS rank, call_id, external_call_id, closer_email, created_at,
                   overall_score, NULL::float8 AS gap
            FROM low WHERE rank <= ${LOW_SCORES}
            UNION ALL
            SELECT closer_id, 'audit_gap', rank::int, call_id, external_call_id, closer_email, created_at, overall_score, gap
            FROM wide WHERE rank <= ${AUDIT_GAPS}
          )
          SELECT p.closer_id, p.kind, p.rank, p.call_id, p.external_call_id, p.closer_email, p.created_at, p.overall_score,
                 (SELECT o.outcome FROM outcome_truth o WHERE o.call_id = p.call_id AND o.client_id = ${v.clientId}) AS outcome, p.gap
          FROM picked p
          ORDER BY 1, 2 DESC, 3`)

    /**
     * Over every audit of the tenant the viewer sees (a rep: the audits of their calls), per
     * dimension the machine assessed: the mean gap, signed and absolute.
     */
    const auditGaps = all(AuditGapRow, ({ clientId, sees }) =>
      sql`SELECT s.key AS dimension,
                 avg(s.value::float8 - (a.automated ->> s.key)::float8)::float8 AS mean_gap,
                 avg(abs(s.value::float8 - (a.automated ->> s.key)::float8))::float8 AS mean_absolute_gap,
                 count(*)::int AS audits
          FROM manual_audits a CROSS JOIN LATERAL jsonb_each_text(a.scores) AS s
          WHERE a.client_id = ${clientId} AND a.automated ->> s.key IS NOT NULL AND ${seenBy(sql, sees, "a.closer_email")}
          GROUP BY s.key ORDER BY s.key`)

    return { closers, weeks, trend, dimensions, toReview, auditGaps } as const
  })
}) {}
