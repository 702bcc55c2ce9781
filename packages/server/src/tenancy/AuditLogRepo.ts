/** The rows of the audit log (`audit_logs`). */
import { AuditLogEntry, ClientId } from "@callsight/api-spec"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
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

const Page = Schema.Struct({ clientId: ClientId, limit: Schema.Number, offset: Schema.Number })

export class AuditLogRepo extends Effect.Service<AuditLogRepo>()("AuditLogRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = (clientId: ClientId, actor: Actor, entry: AuditEntry) =>
      sql`INSERT INTO audit_logs (log_id, client_id, actor, actor_type, action, target_type, target_id, ip, metadata)
          VALUES (${newId("aud")}, ${clientId}, ${actor.id}, ${actor.type}, ${entry.action}, ${entry.targetType},
                  ${entry.targetId}, ${actor.ip}, ${JSON.stringify(entry.metadata ?? {})}::jsonb)`.pipe(Effect.asVoid)

    /** The tenant's rows, newest first. */
    const page = SqlSchema.findAll({
      Request: Page,
      Result: EntryRow,
      execute: ({ clientId, limit, offset }) =>
        sql`SELECT log_id, at, actor, actor_type, action, target_type, target_id, ip, metadata FROM audit_logs
            WHERE client_id = ${clientId} ORDER BY at DESC, log_id DESC LIMIT ${limit} OFFSET ${offset}`
    })

    const count = SqlSchema.single({
      Request: ClientId,
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (clientId) => sql`SELECT count(*)::int AS total FROM audit_logs WHERE client_id = ${clientId}`
    })

    return { insert, page, count } as const
  })
}) {}
