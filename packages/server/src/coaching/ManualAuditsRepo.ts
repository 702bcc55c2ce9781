/**
 * Manual audits (`manual_audits`): a manager's scores of a call by dimension, stored with the
 * machine's scores of the dimensions it assessed at that moment (`automated`) and its overall.
 * Reads take the tenant first, then whose calls the reader sees (`Sees.ts`): a rep reads only the
 * audits of their own calls (`a.closer_email`, the audited call's closer copied when audited; a
 * call's closer never changes) and finds only their own calls to audit (`c.closer_email`); what
 * they do not see is absent, as another tenant's is. The audited call's closer is found by e-mail
 * (any case).
 */
import { CallId, ClientId, CloserId, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { seenBy, SeesSchema } from "../tenancy/Sees.js"

const Scores = Schema.Record({ key: Schema.String, value: Schema.Number })

/** An audit as stored, with its call's external id, its closer and the auditor's name (or e-mail) found. */
const AuditRow = Schema.Struct({
  audit_id: Schema.String,
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_id: Schema.NullOr(CloserId),
  closer_email: Schema.NullOr(Schema.String),
  auditor_user_id: Schema.String,
  auditor_name: Schema.NullOr(Schema.String),
  scores: Scores,
  automated: Scores,
  automated_overall: Schema.NullOr(Schema.Number),
  notes: Schema.String,
  created_at: IsoTimestamp
})
export type AuditRow = typeof AuditRow.Type

/** The scorecard of a call as the analysis stored it, read leniently: only what an audit compares. */
const StoredScorecard = Schema.Struct({
  overall: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }),
  dimensions: Schema.optionalWith(
    Schema.Array(Schema.Struct({
      dimension: Schema.String,
      score: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }),
      assessed: Schema.optionalWith(Schema.Boolean, { default: () => true })
    })),
    { default: () => [] }
  )
})

/** The call an audit is about: its status, its closer and its scorecard (null until completed). */
const AuditedCall = Schema.Struct({
  status: Schema.String,
  closer_email: Schema.NullOr(Schema.String),
  scorecard: Schema.NullOr(StoredScorecard)
})
export type AuditedCall = typeof AuditedCall.Type

export const NewAudit = Schema.Struct({
  auditId: Schema.String,
  clientId: ClientId,
  callId: CallId,
  closerEmail: Schema.NullOr(Schema.String),
  auditorUserId: Schema.String,
  scores: Scores,
  automated: Scores,
  automatedOverall: Schema.NullOr(Schema.Number),
  notes: Schema.String
})

const PageRequest = Schema.Struct({
  tenantId: ClientId,
  sees: SeesSchema,
  limit: Schema.Number,
  offset: Schema.Number,
  callId: Schema.NullOr(Schema.String)
})

export class ManualAuditsRepo extends Effect.Service<ManualAuditsRepo>()("ManualAuditsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const select = sql`SELECT a.audit_id, a.call_id, c.external_call_id, cl.closer_id, a.closer_email, a.auditor_user_id,
                              COALESCE(u.full_name, u.email) AS auditor_name, a.scores, a.automated, a.automated_overall,
                              a.notes, a.created_at
                       FROM manual_audits a
                       LEFT JOIN calls c ON c.call_id = a.call_id AND c.client_id = a.client_id
                       LEFT JOIN closers cl ON cl.client_id = a.client_id AND lower(cl.email) = lower(a.closer_email)
                       LEFT JOIN users u ON u.user_id = a.auditor_user_id AND u.client_id = a.client_id`

    /** The tenant's call, if the caller sees it, locked while its audit is written (the analysis cannot change under it). */
    const call = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, sees: SeesSchema, callId: Schema.String }),
      Result: AuditedCall,
      execute: ({ callId, sees, tenantId }) =>
        sql`SELECT status, closer_email, result -> 'scorecard' AS scorecard FROM calls
            WHERE client_id = ${tenantId} AND call_id = ${callId} AND ${seenBy(sql, sees, "closer_email")} FOR SHARE`
    })

    const insert = Rows.execute({
      Request: NewAudit,
      execute: (a) =>
        sql`INSERT INTO manual_audits (audit_id, client_id, call_id, closer_email, auditor_user_id, scores, automated,
                                       automated_overall, notes)
            VALUES (${a.auditId}, ${a.clientId}, ${a.callId}, ${a.closerEmail}, ${a.auditorUserId},
                    ${JSON.stringify(a.scores)}::jsonb, ${JSON.stringify(a.automated)}::jsonb, ${a.automatedOverall}, ${a.notes})`
    })

    const find = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, sees: SeesSchema, auditId: Schema.String }),
      Result: AuditRow,
      execute: ({ auditId, sees, tenantId }) =>
        sql`${select} WHERE a.client_id = ${tenantId} AND a.audit_id = ${auditId} AND ${seenBy(sql, sees, "a.closer_email")}`
    })

    const filter = (p: typeof PageRequest.Encoded) => {
      const seen = sql`a.client_id = ${p.tenantId} AND ${seenBy(sql, p.sees, "a.closer_email")}`
      return p.callId === null ? seen : sql`${seen} AND a.call_id = ${p.callId}`
    }

    const page = Rows.findAll({
      Request: PageRequest,
      Result: AuditRow,
      execute: (p) =>
        sql`${select} WHERE ${filter(p)} ORDER BY a.created_at DESC, a.audit_id DESC LIMIT ${p.limit} OFFSET ${p.offset}`
    })

    const count = Rows.single({
      Request: PageRequest,
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (p) => sql`SELECT count(*)::int AS total FROM manual_audits a WHERE ${filter(p)}`
    })

    return {
      call: (clientId: ClientId, sees: Sees, callId: string) => call({ tenantId: clientId, sees, callId }),
      insert,
      find: (clientId: ClientId, sees: Sees, auditId: string) => find({ tenantId: clientId, sees, auditId }),
      page: (clientId: ClientId, sees: Sees, limit: number, offset: number, callId: string | null) =>
        page({ tenantId: clientId, sees, limit, offset, callId }),
      count: (clientId: ClientId, sees: Sees, callId: string | null) =>
        Effect.map(count({ tenantId: clientId, sees, limit: 0, offset: 0, callId }), (r) => r.total)
    } as const
  })
}) {}
