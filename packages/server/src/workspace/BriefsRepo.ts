/**
 * What the workspace's dashboard briefs read beyond the shared views (team health's figures are
 * the shared floor's, views/TeamHealthQueries.ts). For deal intelligence, `dealDetails`: what the
 * daily brief's `openDeals` view does not carry of the same calls (completed in the last `days`
 * days, outcome none or `open`): the outcome truth's stage, deal value and currency, the overall
 * score, and the analysis's objections and next steps.
 */
import { CallId, ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"

const DealObjection = Schema.Struct({ kind: Schema.String, response: Schema.String })
const DealNextStep = Schema.Struct({ quote: Schema.String, due: Schema.NullOr(Schema.String) })

export const DealDetails = Schema.Struct({
  call_id: CallId,
  stage: Schema.NullOr(Schema.String),
  deal_value: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  overall_score: Schema.NullOr(Schema.Number),
  objections: Schema.Array(DealObjection),
  next_steps: Schema.Array(DealNextStep)
})
export type DealDetails = typeof DealDetails.Type

export class BriefsRepo extends Effect.Service<BriefsRepo>()("BriefsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const overall = sql`(c.result -> 'scorecard' ->> 'overall')::float8`
    const objections = Rows.resultArray(sql, "c", "objections")
    const nextSteps = Rows.resultArray(sql, "c", "next_steps")

    /** The undecided deals' details, in the `openDeals` window (joined by call in the service). */
    const dealDetails = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, days: Schema.Number }),
      Result: DealDetails,
      execute: ({ clientId, days }) =>
        sql`SELECT c.call_id, o.stage, o.deal_value, o.currency, ${overall} AS overall_score,
                   ${objections} AS objections, ${nextSteps} AS next_steps
            FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
            WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.completed_at > now() - make_interval(days => ${days})
              AND (o.outcome IS NULL OR o.outcome = 'open')
            ORDER BY c.call_id`
    })

    return {
      dealDetails: (clientId: ClientId, days: number) => Effect.orDie(dealDetails({ clientId, days }))
    } as const
  })
}) {}
