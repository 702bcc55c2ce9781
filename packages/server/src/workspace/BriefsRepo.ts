/**
 * What the workspace's dashboard briefs read beyond the shared views (team health's figures are
 * the shared floor's, views/TeamHealthQueries.ts). For deal intelligence, `dealDetails`: what the
 * daily brief's `openDeals` view does not carry of the same calls (completed in the last `days`
 * days, outcome none or `open`): the outcome truth's stage, deal value and currency, the overall
 * score, and the analysis's objections and next steps, and the call's deal (docs/deals.md).
 * `dealCalls`: the completed calls of the given deals that the viewer sees, for the deal's timeline.
 */
import { CallId, ClientId, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

const DealObjection = Schema.Struct({ kind: Schema.String, response: Schema.String, quote: Schema.String })
const DealNextStep = Schema.Struct({ quote: Schema.String, due: Schema.NullOr(Schema.String) })

/** What a call says of its deal: the deal, its external id and account, when the meeting was, who attended. */
const DealFields = {
  deal_id: Schema.NullOr(Schema.String),
  external_deal_id: Schema.NullOr(Schema.String),
  account_id: Schema.NullOr(Schema.String),
  account_name: Schema.NullOr(Schema.String),
  account_domain: Schema.NullOr(Schema.String),
  meeting_at: IsoTimestamp,
  closer_email: Schema.NullOr(Schema.String),
  attendees: Schema.Array(Schema.String)
}

export const DealDetails = Schema.Struct({
  call_id: CallId,
  stage: Schema.NullOr(Schema.String),
  deal_value: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  overall_score: Schema.NullOr(Schema.Number),
  objections: Schema.Array(DealObjection),
  next_steps: Schema.Array(DealNextStep),
  ...DealFields
})
export type DealDetails = typeof DealDetails.Type

/** A completed call of a deal, with its outcome (a decided one closes the deal). */
export const DealCallRow = Schema.Struct({
  call_id: CallId,
  overall_score: Schema.NullOr(Schema.Number),
  objections: Schema.Array(DealObjection),
  next_steps: Schema.Array(DealNextStep),
  outcome: Schema.NullOr(Schema.String),
  ...DealFields
})
export type DealCallRow = typeof DealCallRow.Type

export class BriefsRepo extends Effect.Service<BriefsRepo>()("BriefsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // the generated column and the digest of migration 0024 (the same values, without reading the whole analysis)
    const overall = sql`c.overall_score`
    const objections = Rows.digestArray(sql, "c", "objections")
    const nextSteps = Rows.digestArray(sql, "c", "next_steps")
    const dealFields = sql`c.deal_id, d.external_deal_id, c.account_id, a.name AS account_name, a.domain AS account_domain,
                           c.occurred_at AS meeting_at, c.closer_email, c.attendees`

    /** The undecided deals' details, in the `openDeals` window (joined by call in the service). */
    const dealDetails = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, days: Schema.Number }),
      Result: DealDetails,
      execute: ({ clientId, days }) =>
        sql`SELECT c.call_id, o.stage, o.deal_value, o.currency, ${overall} AS overall_score,
                   ${objections} AS objections, ${nextSteps} AS next_steps, ${dealFields}
            FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
              LEFT JOIN deals d ON d.deal_id = c.deal_id LEFT JOIN accounts a ON a.account_id = c.account_id
            WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.occurred_at > now() - make_interval(days => ${days})
              AND (o.outcome IS NULL OR o.outcome = 'open')
            ORDER BY c.call_id`
    })

    /** The completed calls of these deals that the viewer sees, oldest meeting first. */
    const dealCalls = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, dealIds: Schema.Array(Schema.String), sees: SeesSchema }),
      Result: DealCallRow,
      execute: ({ clientId, dealIds, sees }) =>
        dealIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT c.call_id, ${overall} AS overall_score, ${objections} AS objections, ${nextSteps} AS next_steps,
                       o.outcome, ${dealFields}
                FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
                  LEFT JOIN deals d ON d.deal_id = c.deal_id LEFT JOIN accounts a ON a.account_id = c.account_id
                WHERE c.client_id = ${clientId} AND c.status = 'completed' AND ${sql.in("c.deal_id", dealIds)}
                  AND ${seenBy(sql, sees as Sees, "c.closer_email")}
                ORDER BY c.occurred_at, c.call_id`
    })

    return {
      dealDetails: (clientId: ClientId, days: number) => Effect.orDie(dealDetails({ clientId, days })),
      dealCalls: (clientId: ClientId, dealIds: ReadonlyArray<string>, sees: Sees) => Effect.orDie(dealCalls({ clientId, dealIds, sees }))
    } as const
  })
}) {}
