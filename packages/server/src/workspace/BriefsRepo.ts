/**
 * What the workspace's dashboard briefs read beyond the shared views (team health's figures are
 * the shared floor's, views/TeamHealthQueries.ts). For deal intelligence (workspace/Briefs.ts):
 *
 * - `openDeals`: the daily brief's open deals (`ValueQueries.openDeals`: the completed calls the
 *   viewer sees whose meeting was in the last `days` days, with a transcript, whose outcome is none
 *   or `open`), one a deal: the deal's latest such call (a call of no deal alone), newest first,
 *   leaving out the deals one of whose completed calls the viewer sees has a decided outcome. Each
 *   with what ranks it: the daily brief's counts, the outcome and its deal value, the overall score.
 *   The calls of no deal only as many as can be listed (`limit`), the first in deal intelligence's
 *   order (their risk, `ValueQueries.openDealRiskRank`; deal value; newest).
 * - `dealCallFacts`: the completed calls of the given deals that the viewer sees, with what orders
 *   the deals (score, outcome, the kinds of objection raised, the steps' dues); `dealCalls` the same
 *   calls whole (objections and steps with their quotes, attendees) for the deals listed.
 * - `dealDetails`: for the deals listed, what the daily brief's view does not carry of their
 *   latest calls: the outcome truth's stage, deal value and currency, the overall score, the
 *   analysis's objections and next steps, and the call's deal (docs/deals.md).
 *
 * At 100,000 calls (issue 39) the window is read from `calls_open_window_idx` alone (migration
 * 0026: the completed calls with a transcript by tenant and meeting, with their deal and closer),
 * the outcomes by one hash join, a deal's calls from `calls_deal_cover_idx`; the open deals' latest
 * calls' counts from `calls.trend_facts` (0025), whether a deal is closed by looking up its few
 * calls' outcomes by key; the digest of the analysis (migration 0024) is read for the listed
 * deals' calls only.
 */
import { CallId, ClientId, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"
import { OBJECTION_KINDS } from "../views/Trends.js"
import { TREND_FACT, unpackedFacts } from "../views/TrendsQueries.js"
import { openDealRiskRank } from "../views/ValueQueries.js"

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

/**
 * A completed call of a deal as deal intelligence's order reads it: its score and outcome, the kinds
 * of objection it raised, its steps' dues (those with one, as said, in order); not the quotes,
 * answers and attendees the listed deals show (`dealCalls`, read for those deals only).
 */
export const DealCallFacts = Schema.Struct({
  call_id: CallId,
  deal_id: Schema.NullOr(Schema.String),
  meeting_at: IsoTimestamp,
  overall_score: Schema.NullOr(Schema.Number),
  kinds: Schema.Array(Schema.String),
  dues: Schema.Array(Schema.String),
  outcome: Schema.NullOr(Schema.String)
})
export type DealCallFacts = typeof DealCallFacts.Type

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
      Request: Schema.Struct({
        clientId: ClientId,
        sees: SeesSchema,
        days: Schema.Number,
        salesCycleDays: Schema.NullOr(Schema.Number),
        lowScore: Schema.Number,
        limit: Schema.Number
      }),
      Result: OpenDeal,
      execute: ({ clientId, days, limit, lowScore, salesCycleDays, sees }) =>
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
            undecided AS (
              SELECT c.call_id, c.external_call_id, c.closer_email, c.deal_id, l.occurred_at,
                     floor(extract(epoch FROM now() - c.occurred_at) / 86400)::int AS age_days,
                     COALESCE(x.tf[${sql.literal(String(TREND_FACT.said))}], 0)::int AS next_steps,
                     COALESCE(x.tf[${sql.literal(String(TREND_FACT.unexplored))}], 0)::int AS unexplored_objections,
                     l.outcome, l.deal_value, ${overall} AS overall_score
              FROM latest l
                -- a decided outcome on another call of the deal closes it: looked up deal by deal (a few
                -- calls each, their outcomes by key), not by hashing the tenant's decided outcomes
                LEFT JOIN LATERAL (
                  SELECT 1 AS closed
                  FROM calls k CROSS JOIN LATERAL (SELECT o.outcome FROM outcome_truth o WHERE o.call_id = k.call_id OFFSET 0) o
                  WHERE k.deal_id = l.deal_id AND k.client_id = ${clientId} AND k.status = 'completed'
                    AND ${seenBy(sql, sees, "k.closer_email")} AND o.outcome <> 'open'
                  LIMIT 1) k ON true
                JOIN calls c ON c.call_id = l.call_id
                CROSS JOIN ${unpackedFacts(sql, "c")}
              WHERE k.closed IS NULL),
            -- a call of no deal is a deal of its own whose risk is its call's (known here): only the
            -- first 'limit' of them in the service's order (risk, deal value, newest) can be listed
            ranked AS (
              SELECT u.*, row_number() OVER (
                       PARTITION BY u.deal_id IS NULL
                       ORDER BY ${openDealRiskRank(sql, salesCycleDays, lowScore)}, u.deal_value DESC NULLS LAST, u.occurred_at DESC, u.call_id
                     ) AS n
              FROM undecided u)
            SELECT call_id, external_call_id, closer_email, deal_id, age_days, next_steps, unexplored_objections, outcome, deal_value, overall_score
            FROM ranked WHERE deal_id IS NOT NULL OR n <= ${limit}
            ORDER BY occurred_at DESC, call_id`
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

    /** `c`: the completed calls of these deals that the viewer sees, oldest meeting first. */
    const DealsRequest = Schema.Struct({ clientId: ClientId, dealIds: Schema.Array(Schema.String), sees: SeesSchema })
    const ofDeals = ({ clientId, dealIds, sees }: typeof DealsRequest.Encoded) =>
      sql`WHERE c.client_id = ${clientId} AND c.status = 'completed' AND ${sql.in("c.deal_id", dealIds)}
            AND ${seenBy(sql, sees as Sees, "c.closer_email")}
          ORDER BY c.occurred_at, c.call_id`

    /** The completed calls of these deals that the viewer sees, oldest meeting first. */
    const dealCalls = Rows.findAll({
      Request: DealsRequest,
      Result: DealCallRow,
      execute: (r) =>
        r.dealIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT c.call_id, c.deal_id, c.occurred_at AS meeting_at, c.closer_email, c.attendees, ${overall} AS overall_score,
                       ${objections} AS objections, ${nextSteps} AS next_steps,
                       (SELECT o.outcome FROM outcome_truth o WHERE o.call_id = c.call_id) AS outcome
                FROM calls c ${digestOnce("c")}
                ${ofDeals(r)}`
    })

    // the kinds a call raised, from its counts per kind
    const kindsRaised = sql.literal(
      `array_remove(ARRAY[${OBJECTION_KINDS.map((k) => `CASE WHEN x.tf[${TREND_FACT[k]}] > 0 THEN '${k}' END`).join(", ")}]::text[], NULL)`
    )
    /**
     * `dealCalls`' calls with what orders the deals, from the numbers kept beside each analysis
     * (`calls.trend_facts`, `trend_dues`, migration 0025): the analysis's digest is not read.
     */
    const dealCallFacts = Rows.findAll({
      Request: DealsRequest,
      Result: DealCallFacts,
      execute: (r) =>
        r.dealIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT c.call_id, c.deal_id, c.occurred_at AS meeting_at, ${overall} AS overall_score,
                       ${kindsRaised} AS kinds, COALESCE(c.trend_dues, '{}') AS dues,
                       (SELECT o.outcome FROM outcome_truth o WHERE o.call_id = c.call_id) AS outcome
                FROM calls c CROSS JOIN ${unpackedFacts(sql, "c")}
                ${ofDeals(r)}`
    })

    return {
      openDeals: (
        clientId: ClientId,
        sees: Sees,
        o: { readonly days: number; readonly salesCycleDays: number | null; readonly lowScore: number; readonly limit: number }
      ) => Effect.orDie(openDeals({ clientId, sees, ...o })),
      dealDetails: (clientId: ClientId, callIds: ReadonlyArray<string>) => Effect.orDie(dealDetails({ clientId, callIds })),
      dealCalls: (clientId: ClientId, dealIds: ReadonlyArray<string>, sees: Sees) => Effect.orDie(dealCalls({ clientId, dealIds, sees })),
      dealCallFacts: (clientId: ClientId, dealIds: ReadonlyArray<string>, sees: Sees) => Effect.orDie(dealCallFacts({ clientId, dealIds, sees }))
    } as const
  })
}) {}
