/** The rows of the audit log (`audit_logs`). */
import { AuditLogEntry, ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

export type ActorType = "user" | "api_key" | "staff" | "system"

/** Who made a change, and from where. */
export interface Actor {
  readonly id: string
  readonly type: ActorType
  readonly ip: string | null
}

/** What a change was: the action, its target, and metadata without secrets. */
export interface AuditEntry {
  readonly action: string
  readonly targetType: string
  readonly targetId: string | null
  readonly metadata?: Readonly<Record<string, unknown>>
}

const EntryRow = Schema.Struct({ ...AuditLogEntry.fields, at: IsoTimestamp })

/**
 * Which rows of the tenant (null: not filtered): `action`, `targetType` and `actorType` exactly;
 * `actor` the stored actor exactly, or the e-mail (any case) of a user of the tenant, whose rows
 * are those of its user id; times as ISO-8601 instants, `from` the first a row may have, `before`
 * the first it may not.
 */
const AuditFilter = Schema.Struct({
  action: Schema.NullOr(Schema.String),
  targetType: Schema.NullOr(Schema.String),
  actorType: Schema.NullOr(Schema.String),
  actor: Schema.NullOr(Schema.String),
  from: Schema.NullOr(Schema.String),
  before: Schema.NullOr(Schema.String)
})

const Filtered = Schema.Struct({ clientId: ClientId, ...AuditFilter.fields })

const Page = Schema.Struct({ ...Filtered.fields, limit: Schema.Number, offset: Schema.Number })

export class AuditLogRepo extends Effect.Service<AuditLogRepo>()("AuditLogRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = (clientId: ClientId, actor: Actor, entry: AuditEntry) =>
      sql`INSERT INTO audit_logs (log_id, client_id, actor, actor_type, action, target_type, target_id, ip, metadata)
          VALUES (${newId("aud")}, ${clientId}, ${actor.id}, ${actor.type}, ${entry.action}, ${entry.targetType},
                  ${entry.targetId}, ${actor.ip}, ${JSON.stringify(entry.metadata ?? {})}::jsonb)`.pipe(Effect.asVoid)

    /** The tenant's rows that pass the filter. */
    const matching = (f: typeof Filtered.Encoded) =>
      sql`a.client_id = ${f.clientId}
          AND (${f.action}::text IS NULL OR a.action = ${f.action})
          AND (${f.targetType}::text IS NULL OR a.target_type = ${f.targetType})
          AND (${f.actorType}::text IS NULL OR a.actor_type = ${f.actorType})
          AND (${f.actor}::text IS NULL OR a.actor = ${f.actor}
               OR (a.actor_type = 'user' AND a.actor IN (
                     SELECT u.user_id FROM users u WHERE u.client_id = ${f.clientId} AND lower(u.email) = lower(${f.actor}))))
          AND (${f.from}::timestamptz IS NULL OR a.at >= ${f.from}::timestamptz)
          AND (${f.before}::timestamptz IS NULL OR a.at < ${f.before}::timestamptz)`

    /** The tenant's rows that pass the filter, newest first (equal times: the greater id first). */
    const page = Rows.findAll({
      Request: Page,
      Result: EntryRow,
      execute: (f) =>
        sql`SELECT a.log_id, a.at, a.actor, a.actor_type, a.action, a.target_type, a.target_id, a.ip, a.metadata
            FROM audit_logs a WHERE ${matching(f)}
            ORDER BY a.at DESC, a.log_id DESC LIMIT ${f.limit} OFFSET ${f.offset}`
    })

    /** How many of the tenant's rows pass the filter. */
    const count = Rows.single({
      Request: Filtered,
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (f) => sql`SELECT count(*)::int AS total FROM audit_logs a WHERE ${matching(f)}`
    })

    return { insert, page, count } as const
  })
}) {}
