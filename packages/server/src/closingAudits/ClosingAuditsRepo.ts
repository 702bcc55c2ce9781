/**
 * The tenant's closing audits (`closing_audits`, migration 0023), their charge in the credit ledger,
 * and what an audit reads: the tenant's calls (the ones named, or the last N completed of each
 * closer) with their stored analyses, and the closers' names. Every read takes the tenant's id.
 */
import { type ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { execute, findAll, findOne, IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"

/** A call of the tenant as the audit reads it. */
const CallRow = Schema.Struct({
  call_id: Schema.String,
  status: Schema.String,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  completed_at: NullableIsoTimestamp,
  duration_s: Schema.NullOr(Schema.Number),
  result: Schema.Unknown
})
export type AuditCallRow = typeof CallRow.Type

const AuditRow = Schema.Struct({
  audit_id: Schema.String,
  title: Schema.String,
  mode: Schema.Literal("call_ids", "last_per_closer"),
  last_per_closer: Schema.NullOr(Schema.Number),
  call_ids: Schema.Array(Schema.String),
  credits: Schema.Number,
  request: Schema.Unknown,
  created_at: IsoTimestamp
})
export type AuditRow = typeof AuditRow.Type

const AUDIT_COLUMNS = "audit_id, title, mode, last_per_closer, call_ids, credits, request, created_at"

export interface NewAudit {
  readonly auditId: string
  readonly clientId: ClientId
  readonly title: string
  readonly mode: "call_ids" | "last_per_closer"
  readonly lastPerCloser: number | null
  readonly callIds: ReadonlyArray<string>
  readonly credits: number
  readonly createdBy: string
  readonly idempotencyKey: string | null
  readonly request: unknown
}

export class ClosingAuditsRepo extends Effect.Service<ClosingAuditsRepo>()("ClosingAuditsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(AUDIT_COLUMNS)

    /** The tenant's calls among `callIds` (another tenant's are not found), in any status. */
    const callsByIds = findAll({
      Request: Schema.Struct({ clientId: Schema.String, callIds: Schema.Array(Schema.String) }),
      Result: CallRow,
      execute: (r) =>
        sql`SELECT call_id, status, external_call_id, closer_email, completed_at, duration_s, result FROM calls
            WHERE client_id = ${r.clientId} AND call_id = ANY(${r.callIds}::text[])`
    })

    /** The last `n` completed calls of each closer (by e-mail in any case), at most `cap` in all, the newest first. */
    const lastPerCloser = findAll({
      Request: Schema.Struct({ clientId: Schema.String, n: Schema.Number, cap: Schema.Number }),
      Result: CallRow,
      execute: (r) =>
        sql`SELECT call_id, status, external_call_id, closer_email, completed_at, duration_s, result FROM (
              SELECT c.*, row_number() OVER (PARTITION BY lower(c.closer_email) ORDER BY c.completed_at DESC, c.call_id) AS nth
              FROM calls c
              WHERE c.client_id = ${r.clientId} AND c.status = 'completed' AND c.closer_email IS NOT NULL AND c.result IS NOT NULL
            ) x
            WHERE nth <= ${r.n}
            ORDER BY completed_at DESC, call_id
            LIMIT ${r.cap}`
    })

    /** The tenant's closers by lower-case e-mail (removed ones too: their calls keep their e-mail). */
    const closers = findAll({
      Request: Schema.String,
      Result: Schema.Struct({ email: Schema.String, full_name: Schema.NullOr(Schema.String) }),
      execute: (clientId) => sql`SELECT email, full_name FROM closers WHERE client_id = ${clientId}`
    })

    const insert = execute({
      Request: Schema.Struct({
        auditId: Schema.String,
        clientId: Schema.String,
        title: Schema.String,
        mode: Schema.String,
        lastPerCloser: Schema.NullOr(Schema.Number),
        callIds: Schema.Array(Schema.String),
        credits: Schema.Number,
        createdBy: Schema.String,
        idempotencyKey: Schema.NullOr(Schema.String),
        request: Schema.Unknown
      }),
      execute: (a) =>
        sql`INSERT INTO closing_audits (audit_id, client_id, title, mode, last_per_closer, call_ids, credits, created_by, idempotency_key, request)
            VALUES (${a.auditId}, ${a.clientId}, ${a.title}, ${a.mode}, ${a.lastPerCloser}, ${JSON.stringify(a.callIds)}::jsonb,
                    ${a.credits}, ${a.createdBy}, ${a.idempotencyKey}, ${JSON.stringify(a.request)}::jsonb)`
    })

    /** The audit's price, once: one ledger row naming it (a second charge of it is refused by the index). */
    const charge = execute({
      Request: Schema.Struct({ clientId: Schema.String, auditId: Schema.String, credits: Schema.Number }),
      execute: (r) =>
        sql`INSERT INTO credit_ledger (client_id, delta, reason, closing_audit_id)
            VALUES (${r.clientId}, ${-r.credits}, 'closing_audit', ${r.auditId})`
    })

    const find = findOne({
      Request: Schema.Struct({ clientId: Schema.String, auditId: Schema.String }),
      Result: AuditRow,
      execute: (r) => sql`SELECT ${columns} FROM closing_audits WHERE client_id = ${r.clientId} AND audit_id = ${r.auditId}`
    })

    const findByKey = findOne({
      Request: Schema.Struct({ clientId: Schema.String, key: Schema.String }),
      Result: AuditRow,
      execute: (r) => sql`SELECT ${columns} FROM closing_audits WHERE client_id = ${r.clientId} AND idempotency_key = ${r.key}`
    })

    const list = findAll({
      Request: Schema.Struct({ clientId: Schema.String, limit: Schema.Number }),
      Result: AuditRow,
      execute: (r) =>
        sql`SELECT ${columns} FROM closing_audits WHERE client_id = ${r.clientId} ORDER BY created_at DESC, audit_id LIMIT ${r.limit}`
    })

    const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.orDie(effect)
    return {
      callsByIds: (clientId: ClientId, callIds: ReadonlyArray<string>) => orDie(callsByIds({ clientId, callIds })),
      lastPerCloser: (clientId: ClientId, n: number, cap: number) => orDie(lastPerCloser({ clientId, n, cap })),
      closers: (clientId: ClientId) => orDie(closers(clientId)),
      insert: (a: NewAudit) => insert(a),
      charge: (clientId: ClientId, auditId: string, credits: number) => charge({ clientId, auditId, credits }),
      find: (clientId: ClientId, auditId: string) => orDie(find({ clientId, auditId })),
      findByKey: (clientId: ClientId, key: string) => findByKey({ clientId, key }),
      list: (clientId: ClientId, limit: number) => orDie(list({ clientId, limit }))
    } as const
  })
}) {}
