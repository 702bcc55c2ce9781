/**
 * What the workspace's dashboard briefs read beyond the shared views (team health's figures are
 * the shared floor's, views/TeamHealthQueries.ts). For deal intelligence (workspace/Briefs.ts):
 *
 * - `openDeals`: the daily brief's open deals (`ValueQueries.openDeals`: the completed calls the
 *   viewer sees whose meeting was in the last `days` days, with a transcript, whose outcome is none
 *   or `open`), one a deal: the deal's latest such call (a call of no deal alone), newest first,
 *   leaving out the deals one of whose completed calls the viewer sees has a decided outcome. Each
 *   with what ranks it: the daily brief's counts, the outcome and its deal value, the overall score.
 * - `dealCalls`: the completed calls of the given deals that the viewer sees, for the deal's timeline.
 * - `dealDetails`: for the deals listed, what the daily brief's view does not carry of their
 *   latest calls: the outcome truth's stage, deal value and currency, the overall score, the
 *   analysis's objections and next steps, and the call's deal (docs/deals.md).
 *
 * At 100,000 calls (issue 39) the window is read from `calls_open_window_idx` alone (migration
 * 0026: the completed calls with a transcript by tenant and meeting, with their deal and closer),
 * the outcomes by one hash join, a deal's calls from `calls_deal_cover_idx`; the digest of the
 * analysis (migration 0024) is read for the deals' latest calls only.
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

/** An open deal's latest call: the daily brief's `OpenDeal` (ValueQueries.ts), with its deal, deal value and score. */
export const OpenDeal = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  deal_id: Schema.NullOr(Schema.String),
  age_days: Schema.Number,
  next_steps: Schema.Number,
  unexplored_objections: Schema.Number,
  outcome: Schema.NullOr(Schema.Literal("open")),
  deal_value: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number)
})
export type OpenDeal = typeof OpenDeal.Type

/** A completed call of a deal, with its outcome (a decided one closes the deal), as its timeline reads it. */
export const DealCallRow = Schema.Struct({
  call_id: CallId,
  deal_id: Schema.NullOr(Schema.String),
  meeting_at: IsoTimestamp,
  closer_email: Schema.NullOr(Schema.String),
  attendees: Schema.Array(Schema.String),
  overall_score: Schema.NullOr(Schema.Number),
  objections: Schema.Array(DealObjection),
  next_steps: Schema.Array(DealNextStep),
  outcome: Schema.NullOr(Schema.String)
})
export type DealCallRow = typeof DealCallRow.Type

export class BriefsRepo extends Effect.Service<BriefsRepo>()("BriefsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // the generated column and the digest of migration 0024 (the same values, without reading the whole analysis)
    const overall = sql`c.overall_score`
    // the digest is stored out of line, compressed: each `->` on the column fetches and decompresses
    // it again, so each row's is read once (`g.digest`, a copy in memory) and its parts taken from that
    const digestOnce = (alias: string) => sql`CROSS JOIN LATERAL (SELECT ${sql.literal(alias)}.digest || '{}'::jsonb AS digest OFFSET 0) g`
    const objections = Rows.digestArray(sql, "g", "objections")
    const nextSteps = Rows.digestArray(sql, "g", "next_steps")
    /** The open deals' latest calls, newest first (one a deal; a call of no deal alone), with what ranks them. */
    const openDeals = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, sees: SeesSchema, days: Schema.Number }),
      Result: OpenDeal,
      execute: ({ clientId, days, sees }) =>
        sql`WITH w AS (
              SELECT c.call_id, c.deal_id, c.occurred_at, o.outcome, o.deal_value
              FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
              WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.occurred_at > now() - make_interval(days => ${days})
                AND jsonb_typeof(c.digest -> 'transcript') = 'array' AND ${seenBy(sql, sees, "c.closer_email")}
                AND (o.outcome IS NULL OR o.outcome = 'open')
            ),
            latest AS (
              SELECT DISTINCT ON (w.deal_id, CASE WHEN w.deal_id IS NULL THEN w.call_id END) w.*
              FROM w ORDER BY w.deal_id, CASE WHEN w.deal_id IS NULL THEN w.call_id END, w.occurred_at DESC, w.call_id
            ),
            closed AS (
              SELECT DISTINCT x.deal_id FROM calls x JOIN outcome_truth o ON o.call_id = x.call_id
              WHERE x.deal_id IN (SELECT deal_id FROM latest) AND x.client_id = ${clientId} AND x.status = 'completed'
                AND ${seenBy(sql, sees, "x.closer_email")} AND o.outcome <> 'open'
            )
            SELECT o.call_id, o.external_call_id, o.closer_email, o.deal_id, o.age_days,
                   jsonb_array_length(${nextSteps}) AS next_steps,
                   (SELECT count(*)::int FROM jsonb_array_elements(${objections}) x WHERE x ->> 'response' = 'other') AS unexplored_objections,
                   o.outcome, o.deal_value, o.overall_score
            FROM (SELECT c.call_id, c.external_call_id, c.closer_email, c.deal_id, c.digest, l.occurred_at,
                         floor(extract(epoch FROM now() - c.occurred_at) / 86400)::int AS age_days,
                         l.outcome, l.deal_value, ${overall} AS overall_score
                  FROM latest l JOIN calls c ON c.call_id = l.call_id
                    LEFT JOIN closed k ON k.deal_id = l.deal_id
                  WHERE k.deal_id IS NULL OFFSET 0) o
            ${digestOnce("o")}
            ORDER BY o.occurred_at DESC, o.call_id`
    })

    /** The details of these calls (the deals' latest). */
    const dealDetails = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, callIds: Schema.Array(Schema.String) }),
      Result: DealDetails,
      execute: ({ callIds, clientId }) =>
        callIds.length === 0
          ? Effect.succeed([])
          // a few calls: their deal and account looked up by key (not joined whole)
          : sql`SELECT c.call_id, o.stage, o.deal_value, o.currency, ${overall} AS overall_score,
                       ${objections} AS objections, ${nextSteps} AS next_steps, c.deal_id,
                       (SELECT d.external_deal_id FROM deals d WHERE d.deal_id = c.deal_id) AS external_deal_id,
                       c.account_id, a.name AS account_name, a.domain AS account_domain,
                       c.occurred_at AS meeting_at, c.closer_email, c.attendees
                FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
                  LEFT JOIN LATERAL (SELECT a.name, a.domain FROM accounts a WHERE a.account_id = c.account_id OFFSET 0) a ON true
                  ${digestOnce("c")}
                WHERE c.client_id = ${clientId} AND ${sql.in("c.call_id", callIds)}`
    })

    /** The completed calls of these deals that the viewer sees, oldest meeting first. */
    const dealCalls = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, dealIds: Schema.Array(Schema.String), sees: SeesSchema }),
      Result: DealCallRow,
      execute: ({ clientId, dealIds, sees }) =>
        dealIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT c.call_id, c.deal_id, c.occurred_at AS meeting_at, c.closer_email, c.attendees, ${overall} AS overall_score,
                       ${objections} AS objections, ${nextSteps} AS next_steps,
                       (SELECT o.outcome FROM outcome_truth o WHERE o.call_id = c.call_id) AS outcome
                FROM calls c ${digestOnce("c")}
                WHERE c.client_id = ${clientId} AND c.status = 'completed' AND ${sql.in("c.deal_id", dealIds)}
                  AND ${seenBy(sql, sees as Sees, "c.closer_email")}
                ORDER BY c.occurred_at, c.call_id`
    })

    return {
      openDeals: (clientId: ClientId, sees: Sees, days: number) => Effect.orDie(openDeals({ clientId, sees, days })),
      dealDetails: (clientId: ClientId, callIds: ReadonlyArray<string>) => Effect.orDie(dealDetails({ clientId, callIds })),
      dealCalls: (clientId: ClientId, dealIds: ReadonlyArray<string>, sees: Sees) => Effect.orDie(dealCalls({ clientId, dealIds, sees }))
    } as const
  })
}) {}
