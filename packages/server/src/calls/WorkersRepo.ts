/**
 * The worker processes' heartbeats (`worker_heartbeats`): each process that runs analysis workers
 * writes its row when it starts, beats it while it runs and removes it when it stops cleanly. A
 * process is alive while its last beat is younger than its lease; a crashed one's row stays, dead,
 * and is pruned after a day by any beating process.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

export const Heartbeat = Schema.Struct({
  workerId: Schema.String,
  host: Schema.String,
  pid: Schema.Number,
  concurrency: Schema.Number,
  leaseSeconds: Schema.Number
})
export type Heartbeat = typeof Heartbeat.Type

export const WorkerRow = Schema.Struct({
  worker_id: Schema.String,
  host: Schema.String,
  pid: Schema.Number,
  concurrency: Schema.Number,
  started_at: IsoTimestamp,
  last_heartbeat_at: IsoTimestamp,
  alive: Schema.Boolean,
  jobs_in_flight: Schema.Number
})

export class WorkersRepo extends Effect.Service<WorkersRepo>()("WorkersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const beat = Rows.execute({
      Request: Heartbeat,
      execute: (h) =>
        sql`INSERT INTO worker_heartbeats (worker_id, host, pid, concurrency, lease_seconds)
            VALUES (${h.workerId}, ${h.host}, ${h.pid}, ${h.concurrency}, ${h.leaseSeconds})
            ON CONFLICT (worker_id) DO UPDATE SET last_heartbeat_at = now()`
    })

    const prune = Rows.execute({
      Request: Schema.Void,
      execute: () => sql`DELETE FROM worker_heartbeats WHERE last_heartbeat_at < now() - interval '1 day'`
    })

    const remove = Rows.execute({
      Request: Schema.String,
      execute: (workerId) => sql`DELETE FROM worker_heartbeats WHERE worker_id = ${workerId}`
    })

    /** Processes seen in the last day, alive first, then the latest beat first. */
    const list = Rows.findAll({
      Request: Schema.Void,
      Result: WorkerRow,
      execute: () =>
        sql`SELECT w.worker_id, w.host, w.pid, w.concurrency, w.started_at, w.last_heartbeat_at,
                   w.last_heartbeat_at > now() - make_interval(secs => w.lease_seconds) AS alive,
                   (SELECT count(*)::int FROM analysis_jobs j WHERE j.lease_owner = w.worker_id AND j.state = 'running') AS jobs_in_flight
            FROM worker_heartbeats w
            WHERE w.last_heartbeat_at > now() - interval '1 day'
            ORDER BY alive DESC, w.last_heartbeat_at DESC, w.worker_id`
    })

    return {
      /** Writes the process's row, or refreshes its beat. */
      beat,
      prune: prune(undefined),
      remove,
      list: list(undefined)
    } as const
  })
}) {}
