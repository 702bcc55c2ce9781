/**
 * What team health reads beyond the coaching dashboard: per closer of the tenant not removed (a
 * closer's calls are the tenant's completed calls whose `closer_email` is the closer's e-mail in
 * any case, as the coaching dashboard counts them), over the dashboard's 8 Monday weeks in UTC:
 * the scored calls and their sum in the last 4 weeks and in the 4 before, and the rep talk ratio
 * (`metrics.talk_ratio`) of the calls that have one. Sums and counts travel so that the view
 * averages over calls.
 */
import { ClientId, CloserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { FOCUS_WEEKS, TREND_WEEKS } from "./CoachingQueries.js"

export const CloserFigures = Schema.Struct({
  closer_id: CloserId,
  recent_scored: Schema.Number,
  recent_sum: Schema.Number,
  earlier_scored: Schema.Number,
  earlier_sum: Schema.Number,
  talk_calls: Schema.Number,
  talk_sum: Schema.Number
})
export type CloserFigures = typeof CloserFigures.Type

export class TeamHealthQueries extends Effect.Service<TeamHealthQueries>()("TeamHealthQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const thisMonday = sql`date_trunc('week', now() AT TIME ZONE 'UTC')`
    // the generated columns of migration 0024: `(result -> 'scorecard' ->> 'overall')::float8` and the talk ratio when a number
    const overall = sql`c.overall_score`
    const talk = sql`c.talk_ratio`

    /** Each closer's figures over the trend weeks (closers without calls have no row). */
    const closerFigures = Rows.findAll({
      Request: ClientId,
      Result: CloserFigures,
      execute: (clientId) =>
        // summed by closer e-mail over the window first (thousands of calls), then joined to the closers (a few rows)
        sql`SELECT t.closer_id, f.recent_scored, f.recent_sum, f.earlier_scored, f.earlier_sum, f.talk_calls, f.talk_sum
            FROM closers t
            JOIN (SELECT lower(c.closer_email) AS email,
                         count(${overall}) FILTER (WHERE c.recent)::int AS recent_scored,
                         COALESCE(sum(${overall}) FILTER (WHERE c.recent), 0)::float8 AS recent_sum,
                         count(${overall}) FILTER (WHERE NOT c.recent)::int AS earlier_scored,
                         COALESCE(sum(${overall}) FILTER (WHERE NOT c.recent), 0)::float8 AS earlier_sum,
                         count(${talk})::int AS talk_calls,
                         COALESCE(sum(${talk}), 0)::float8 AS talk_sum
                  FROM (SELECT c.closer_email, c.overall_score, c.talk_ratio,
                               c.occurred_at >= (${thisMonday} - make_interval(weeks => ${FOCUS_WEEKS - 1})) AT TIME ZONE 'UTC' AS recent
                        FROM calls c
                        WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.closer_email IS NOT NULL
                          AND c.occurred_at >= (${thisMonday} - make_interval(weeks => ${TREND_WEEKS - 1})) AT TIME ZONE 'UTC') c
                  GROUP BY 1) f ON f.email = lower(t.email)
            WHERE t.client_id = ${clientId} AND t.status <> 'removed'
            ORDER BY t.closer_id`
    })

    return {
      closerFigures: (clientId: ClientId) => Effect.orDie(closerFigures(clientId))
    } as const
  })
}) {}
