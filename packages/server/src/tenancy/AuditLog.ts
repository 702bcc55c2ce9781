/**
 * The audit log (`GET /v1/client-portal/audit-logs`): every change made through the service, one
 * row each, written by the service that makes the change inside the same transaction, so a change
 * without its row (or a row without its change) cannot be committed. Metadata says what changed,
 * never a secret: callers pass names, ids and prefixes, not keys or tokens.
 */
import type { AuditLogParams, ClientId } from "@callsight/api-spec"
import type { SqlError } from "@effect/sql"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { instantAfter, instantFrom } from "../lib/Time.js"
import { type Actor, type AuditEntry, AuditLogRepo } from "./AuditLogRepo.js"

export type { Actor, ActorType, AuditEntry } from "./AuditLogRepo.js"

/** What `apply` of an audited change decided: the answer, and the audit entry when it changed something. */
export type Outcome<A> =
  | { readonly _tag: "Unchanged"; readonly value: A }
  | { readonly _tag: "Changed"; readonly value: A; readonly entry: AuditEntry }
/** The row is already as asked: answer it, write no audit row. */
export const unchanged = <A>(value: A): Outcome<A> => ({ _tag: "Unchanged", value })
/** The row was changed: answer it, and record `entry`. */
export const changed = <A>(value: A, entry: AuditEntry): Outcome<A> => ({ _tag: "Changed", value, entry })

const isSqlError = (e: unknown): e is SqlError.SqlError => (e as { _tag?: unknown } | null)?._tag === "SqlError"

export class AuditLog extends Effect.Service<AuditLog>()("AuditLog", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* AuditLogRepo

    /** Writes one row; run it inside the transaction of the change it records. */
    const record = (clientId: ClientId, actor: Actor, entry: AuditEntry) => repo.insert(clientId, actor, entry)

    /**
     * One audited change of one row of the tenant, in a transaction: lock the row (`lock`, a
     * `SELECT … FOR UPDATE` scoped to the tenant; `notFound` when it has none), let `apply` decide
     * (fail, leave the row as it is, or change it), and write the audit row of a change.
     */
    const change = <Row, A, E1, E2, R1, R2>(options: {
      readonly clientId: ClientId
      readonly actor: Actor
      readonly lock: Effect.Effect<Option.Option<Row>, SqlError.SqlError, R1>
      readonly notFound: () => E1
      readonly apply: (row: Row) => Effect.Effect<Outcome<A>, E2 | SqlError.SqlError, R2>
    }): Effect.Effect<A, E1 | Exclude<E2, SqlError.SqlError>, R1 | R2> =>
      transactions.run(
        Effect.gen(function* () {
          const row = yield* options.lock
          if (Option.isNone(row)) return yield* Effect.fail(options.notFound())
          const outcome = yield* options.apply(row.value)
          if (outcome._tag === "Changed") yield* record(options.clientId, options.actor, outcome.entry)
          return outcome.value
        })
      ).pipe(Effect.catchIf(isSqlError, Effect.die)) as Effect.Effect<A, E1 | Exclude<E2, SqlError.SqlError>, R1 | R2>

    /**
     * A page of the tenant's rows that pass the filters, newest first, and how many pass them
     * (`AuditLogParams`: the times inclusive, a plain date as `until` its whole day, UTC).
     */
    const list = Effect.fn("AuditLog.list")(function* (clientId: ClientId, params: typeof AuditLogParams.Type) {
      const filter = {
        clientId,
        action: params.action ?? null,
        targetType: params.target_type ?? null,
        actorType: params.actor_type ?? null,
        actor: params.actor ?? null,
        from: params.since === undefined ? null : instantFrom(params.since),
        before: params.until === undefined ? null : instantAfter(params.until)
      }
      const [entries, { total }] = yield* Effect.all([repo.page({ ...filter, limit: params.limit, offset: params.offset }), repo.count(filter)])
      return { entries, total }
    }, Effect.orDie)

    return { record, change, list } as const
  }),
  dependencies: [AuditLogRepo.Default, Transactions.Default]
}) {}
