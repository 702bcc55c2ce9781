/**
 * Outcome-truth records (`outcome_truth`), one per call, and the backlog: the tenant's completed
 * calls without one. What reads calls takes whose calls the caller sees (`Sees.ts`): a rep's
 * backlog and the call a rep may record an outcome for are their own (`seenBy` on the call's
 * `closer_email`); a record is read only after its call was found seen (`callSeen`).
 */
import { CallId, ClientId, OutcomeTruth, OutcomeTruthBacklogItem, type Sees, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

const OutcomeRow = Schema.Struct({
  ...OutcomeTruth.fields,
  closed_at: NullableIsoTimestamp,
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
})

const BacklogRow = Schema.Struct({ ...OutcomeTruthBacklogItem.fields, completed_at: IsoTimestamp })

/** A record as written: absent request fields are null. */
export const NewOutcome = Schema.Struct({
  callId: CallId,
  clientId: ClientId,
  outcome: OutcomeTruth.fields.outcome,
  dealValue: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  /** ISO 8601, as the client sent it. */
  closedAt: Schema.NullOr(Schema.String),
  stage: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  notes: Schema.NullOr(Schema.String),
  isTestData: Schema.Boolean,
  leadSource: Schema.NullOr(Schema.String),
  icpLabel: Schema.NullOr(Schema.String),
  recordedBy: UserId
})

const Backlog = Schema.Struct({ tenantId: ClientId, sees: SeesSchema, limit: Schema.Number, includeTestData: Schema.Boolean })

export class OutcomeTruthRepo extends Effect.Service<OutcomeTruthRepo>()("OutcomeTruthRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`call_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data, lead_source, icp_label,
                           recorded_by, created_at, updated_at`

    const find = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, callId: CallId }),
      Result: OutcomeRow,
      execute: ({ callId, tenantId }) =>
        sql`SELECT ${columns} FROM outcome_truth WHERE client_id = ${tenantId} AND call_id = ${callId}`
    })

    /** Whether the tenant has this call and the viewer sees it (another rep's call is as absent as another tenant's). */
    const callSeen = Rows.single({
      Request: Schema.Struct({ tenantId: ClientId, sees: SeesSchema, callId: CallId }),
      Result: Schema.Struct({ seen: Schema.Boolean }),
      execute: ({ callId, sees, tenantId }) =>
        sql`SELECT EXISTS (SELECT 1 FROM calls c WHERE c.client_id = ${tenantId} AND c.call_id = ${callId}
                                                 AND ${seenBy(sql, sees, "c.closer_email")}) AS seen`
    })

    /** Records the call's outcome, or replaces the one recorded. */
    const upsert = Rows.single({
      Request: NewOutcome,
      Result: OutcomeRow,
      execute: (o) =>
        sql`INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data,
                                       lead_source, icp_label, recorded_by)
            VALUES (${o.callId}, ${o.clientId}, ${o.outcome}, ${o.dealValue}, ${o.currency}, ${o.closedAt},
                    ${o.stage}, ${o.reason}, ${o.notes}, ${o.isTestData}, ${o.leadSource}, ${o.icpLabel}, ${o.recordedBy})
            ON CONFLICT (call_id) DO UPDATE SET
              outcome = EXCLUDED.outcome, deal_value = EXCLUDED.deal_value, currency = EXCLUDED.currency,
              closed_at = EXCLUDED.closed_at, stage = EXCLUDED.stage, reason = EXCLUDED.reason, notes = EXCLUDED.notes,
              is_test_data = EXCLUDED.is_test_data, lead_source = EXCLUDED.lead_source, icp_label = EXCLUDED.icp_label,
              recorded_by = EXCLUDED.recorded_by, updated_at = now()
            RETURNING ${columns}`
    })

    /** The tenant's completed calls without a record that the viewer sees; those of a test tenant only when asked for. */
    const pending = (tenantId: string, sees: Sees, includeTestData: boolean) =>
      sql`FROM calls c
          JOIN tenants t ON t.client_id = c.client_id
          LEFT JOIN outcome_truth o ON o.call_id = c.call_id
          LEFT JOIN market_profiles m ON m.client_id = c.client_id
          WHERE c.client_id = ${tenantId} AND c.status = 'completed' AND o.call_id IS NULL
            AND ${seenBy(sql, sees, "c.closer_email")}
            AND (${includeTestData} OR NOT t.is_test)`

    /**
     * The backlog, oldest first, then by estimated value: the market profile's average deal size
     * (its currency only with a size).
     */
    const backlogQuery = Rows.findAll({
      Request: Backlog,
      Result: BacklogRow,
      execute: (b) =>
        sql`SELECT c.call_id, c.external_call_id, c.closer_email, c.completed_at,
                   floor(extract(epoch FROM now() - c.completed_at) / 86400)::int AS age_days,
                   c.overall_score,
                   (m.profile ->> 'average_deal_size')::float8 AS estimated_deal_value,
                   CASE WHEN m.profile ->> 'average_deal_size' IS NULL THEN NULL ELSE m.profile ->> 'currency' END AS currency,
                   t.is_test AS is_test_data
            ${pending(b.tenantId, b.sees, b.includeTestData)}
            ORDER BY c.completed_at ASC, estimated_deal_value DESC NULLS LAST, c.call_id
            LIMIT ${b.limit}`
    })

    const backlogCount = Rows.single({
      Request: Schema.Struct({ tenantId: ClientId, sees: SeesSchema, includeTestData: Schema.Boolean }),
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (b) => sql`SELECT count(*)::int AS total ${pending(b.tenantId, b.sees, b.includeTestData)}`
    })

    return {
      callSeen: (clientId: ClientId, sees: Sees, callId: CallId) =>
        Effect.map(callSeen({ tenantId: clientId, sees, callId }), (row) => row.seen),
      find: (clientId: ClientId, callId: CallId) => find({ tenantId: clientId, callId }),
      upsert,
      backlog: (clientId: ClientId, sees: Sees, limit: number, includeTestData: boolean) =>
        backlogQuery({ tenantId: clientId, sees, limit, includeTestData }),
      /** How many calls the backlog has, before the limit. */
      backlogCount: (clientId: ClientId, sees: Sees, includeTestData: boolean) =>
        Effect.map(backlogCount({ tenantId: clientId, sees, includeTestData }), (row) => row.total)
    } as const
  })
}) {}
