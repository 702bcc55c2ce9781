/**
 * What the meeting-prep brief reads of the tenant's calls: the buyers' past calls. A call's buyers
 * are its `external_call_id` when that is an e-mail address (the rule of the CRM outcome sync: an
 * external id of that shape is the buyer's address) and its meeting's attendees (the upload's
 * `attendees`, the recorder's calendar event's invitees: docs/deals.md) but those at its closer's
 * domain, compared trimmed and in lower case.
 *
 * `lastCalls`: for each buyer address among `emails`, or at a domain among `domains`, the buyer's
 * most recent completed call of the tenant (by completion, then call id), with what the brief
 * says of it: its outcome truth (outcome, stage, reason), its age in whole days, and the
 * analysis's objections, next steps and qualification elements (each with its evidence's quote).
 */
import { CallId, ClientId, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

const PrepObjection = Schema.Struct({ kind: Schema.String, quote: Schema.String, response: Schema.String })
const PrepNextStep = Schema.Struct({ quote: Schema.String, due: Schema.NullOr(Schema.String) })
const PrepElement = Schema.Struct({ element: Schema.String, score: Schema.Number, quote: Schema.NullOr(Schema.String) })

export const BuyerCall = Schema.Struct({
  /** The buyer's address: the call's external id or one of its attendees, trimmed, in lower case. */
  buyer: Schema.String,
  call_id: CallId,
  completed_at: Rows.IsoTimestamp,
  age_days: Schema.Number,
  outcome: Schema.NullOr(Schema.Literal("won", "lost", "no_decision", "open")),
  stage: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  objections: Schema.Array(PrepObjection),
  next_steps: Schema.Array(PrepNextStep),
  qualification: Schema.Array(PrepElement)
})
export type BuyerCall = typeof BuyerCall.Type

export class MeetingPrepRepo extends Effect.Service<MeetingPrepRepo>()("MeetingPrepRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const buyer = sql`lower(btrim(c.external_call_id))`
    const objections = Rows.resultArray(sql, "c", "objections")
    const nextSteps = Rows.resultArray(sql, "c", "next_steps")
    const elements = Rows.resultArray(sql, "c", "qualification", "elements")

    const lastCalls = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, sees: SeesSchema, emails: Schema.Array(Schema.String), domains: Schema.Array(Schema.String) }),
      Result: BuyerCall,
      execute: ({ clientId, domains, emails, sees }) =>
        sql`SELECT DISTINCT ON (k.buyer) k.buyer, c.call_id, c.completed_at,
                   floor(extract(epoch FROM now() - c.completed_at) / 86400)::int AS age_days,
                   o.outcome, o.stage, o.reason,
                   ${objections} AS objections,
                   ${nextSteps} AS next_steps,
                   (SELECT COALESCE(jsonb_agg(jsonb_build_object('element', e ->> 'element', 'score', (e ->> 'score')::int,
                                                                 'quote', e -> 'evidence' ->> 'quote')), '[]'::jsonb)
                    FROM jsonb_array_elements(${elements}) e) AS qualification
            FROM calls c
            CROSS JOIN LATERAL (
              SELECT ${buyer} AS buyer WHERE c.external_call_id LIKE '%_@_%'
              UNION
              SELECT lower(btrim(a)) FROM jsonb_array_elements_text(c.attendees) a
              WHERE a LIKE '%_@_%' AND split_part(lower(btrim(a)), '@', 2) <> split_part(lower(COALESCE(c.closer_email, '')), '@', 2)
            ) k
            LEFT JOIN outcome_truth o ON o.call_id = c.call_id AND o.client_id = c.client_id
            WHERE c.client_id = ${clientId} AND c.status = 'completed' AND c.completed_at IS NOT NULL
              AND ${seenBy(sql, sees, "c.closer_email")}
              AND (k.buyer IN (SELECT jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))
                   OR split_part(k.buyer, '@', 2) IN (SELECT jsonb_array_elements_text(${JSON.stringify(domains)}::jsonb)))
            ORDER BY k.buyer, c.completed_at DESC, c.call_id DESC`
    })

    return {
      /** The buyers' last calls, of the calls `sees` sees (a rep: their own). */
      lastCalls: (clientId: ClientId, sees: Sees, emails: ReadonlyArray<string>, domains: ReadonlyArray<string>) =>
        emails.length === 0 && domains.length === 0 ? Effect.succeed([]) : Effect.orDie(lastCalls({ clientId, sees, emails, domains }))
    } as const
  })
}) {}
