/**
 * The audit log (`GET /v1/client-portal/audit-logs`): every change made through the service, one
 * row each, written by the service that makes the change inside the same transaction, so a change
 * without its row (or a row without its change) cannot be committed. Metadata says what changed,
 * never a secret: callers pass names, ids and prefixes, not keys or tokens.
 */
import type { AuditLogEntry } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { newId } from "../lib/Ids.js"

export type ActorType = "user" | "api_key" | "staff" | "system"

/** Who made a change, and from where. */
export interface Actor {
  readonly id: string
  readonly type: ActorType
  readonly ip: string | null
}

export interface AuditEntry {
  readonly action: string
  readonly targetType: string
  readonly targetId: string | null
  readonly metadata?: Readonly<Record<string, unknown>>
}

interface AuditRow {
  readonly log_id: string
  readonly at: Date
  readonly actor: string
  readonly actor_type: ActorType
  readonly action: string
  readonly target_type: string
  readonly target_id: string | null
  readonly ip: string | null
  readonly metadata: Record<string, unknown>
}

export class AuditLog extends Effect.Service<AuditLog>()("AuditLog", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Writes one row; run it inside the transaction of the change it records. */
    const record = (clientId: string, actor: Actor, entry: AuditEntry) =>
      sql`INSERT INTO audit_logs (log_id, client_id, actor, actor_type, action, target_type, target_id, ip, metadata)
          VALUES (${newId("aud")}, ${clientId}, ${actor.id}, ${actor.type}, ${entry.action}, ${entry.targetType},
                  ${entry.targetId}, ${actor.ip}, ${JSON.stringify(entry.metadata ?? {})}::jsonb)`

    /** The tenant's rows, newest first. */
    const list = Effect.fn("AuditLog.list")(function* (clientId: string, page: { readonly limit: number; readonly offset: number }) {
      const [rows, [count]] = yield* Effect.all([
        sql<AuditRow>`
          SELECT log_id, at, actor, actor_type, action, target_type, target_id, ip, metadata FROM audit_logs
          WHERE client_id = ${clientId} ORDER BY at DESC, log_id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
        sql<{ total: number }>`SELECT count(*)::int AS total FROM audit_logs WHERE client_id = ${clientId}`
      ])
      const entries: Array<typeof AuditLogEntry.Type> = rows.map((r) => ({ ...r, at: r.at.toISOString() }))
      return { entries, total: count!.total }
    }, Effect.orDie)

    return { record, list } as const
  })
}) {}
