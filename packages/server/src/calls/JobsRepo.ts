/**
 * The durable analysis queue (`analysis_jobs`). A worker claims a job with
 * `FOR UPDATE SKIP LOCKED` and holds it under a lease it renews; a job whose lease expired (its
 * worker died) is claimed again. Every change after the claim is conditional on still holding the
 * lease, so two workers can never both finish one job: those answer whether the job was still
 * this worker's.
 * A job queued (or handed back) is announced on `JOBS_QUEUED` by a `pg_notify` in the statement
 * itself, so inside the caller's transaction it is delivered at the commit, to every process
 * listening (`queued`): idle workers wake at once instead of at their next poll. A job that becomes
 * ready later (a retry's back-off, an expired lease) is announced by no one: the poll finds it.
 */
import { CallId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Option, Schema, Stream } from "effect"
import * as Rows from "../db/Rows.js"

export const ClaimedJob = Schema.Struct({
  call_id: CallId,
  /** Attempts including this one. */
  attempts: Schema.Number
})
export type ClaimedJob = typeof ClaimedJob.Type

const Lease = Schema.Struct({ callId: CallId, workerId: Schema.String })
const Held = Schema.Struct({ call_id: CallId })

/** The channel a queued job is announced on; the payload is its call id. */
export const JOBS_QUEUED = "analysis_jobs_queued"

export class JobsRepo extends Effect.Service<JobsRepo>()("JobsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient

    const enqueue = Rows.execute({
      Request: CallId,
      execute: (callId) =>
        sql`WITH queued AS (INSERT INTO analysis_jobs (call_id) VALUES (${callId}) RETURNING call_id)
            SELECT pg_notify(${JOBS_QUEUED}, call_id) FROM queued`
    })

    const claim = Rows.findOne({
      Request: Schema.Struct({ workerId: Schema.String, leaseSeconds: Schema.Number }),
      Result: ClaimedJob,
      execute: ({ leaseSeconds, workerId }) =>
        sql`UPDATE analysis_jobs
            SET state = 'running', attempts = attempts + 1, lease_owner = ${workerId},
                lease_expires_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
            WHERE call_id = (
              SELECT call_id FROM analysis_jobs
              WHERE (state = 'pending' AND run_after <= now())
                 OR (state = 'running' AND lease_expires_at < now())
              ORDER BY run_after, created_at
              LIMIT 1
              FOR UPDATE SKIP LOCKED
            )
            RETURNING call_id, attempts`
    })

    const renew = Rows.findOne({
      Request: Schema.Struct({ ...Lease.fields, leaseSeconds: Schema.Number }),
      Result: Held,
      execute: ({ callId, leaseSeconds, workerId }) =>
        sql`UPDATE analysis_jobs SET lease_expires_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
            WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
            RETURNING call_id`
    })

    const finish = Rows.findOne({
      Request: Schema.Struct({ ...Lease.fields, state: Schema.Literal("done", "failed"), error: Schema.NullOr(Schema.String) }),
      Result: Held,
      execute: ({ callId, error, state, workerId }) =>
        sql`UPDATE analysis_jobs SET state = ${state}, last_error = ${error}, lease_owner = NULL, lease_expires_at = NULL,
                                     updated_at = now()
            WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
            RETURNING call_id`
    })

    const retryLater = Rows.findOne({
      Request: Schema.Struct({ ...Lease.fields, error: Schema.String, delaySeconds: Schema.Number }),
      Result: Held,
      execute: ({ callId, delaySeconds, error, workerId }) =>
        sql`UPDATE analysis_jobs SET state = 'pending', last_error = ${error}, lease_owner = NULL, lease_expires_at = NULL,
                                     run_after = now() + make_interval(secs => ${delaySeconds}), updated_at = now()
            WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
            RETURNING call_id`
    })

    const release = Rows.execute({
      Request: Lease,
      execute: ({ callId, workerId }) =>
        sql`WITH released AS (
              UPDATE analysis_jobs SET state = 'pending', attempts = attempts - 1, lease_owner = NULL, lease_expires_at = NULL,
                                       run_after = now(), updated_at = now()
              WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
              RETURNING call_id
            )
            SELECT pg_notify(${JOBS_QUEUED}, call_id) FROM released`
    })

    /**
     * The call's job queued afresh for a re-analysis (workspace `reanalyze_call`): only a job that
     * has ended (`done` or `failed`) is reopened, its attempts counted from zero; none when the job
     * is still pending or running.
     */
    const reopen = Rows.findOne({
      Request: CallId,
      Result: Held,
      execute: (callId) =>
        sql`WITH reopened AS (
              INSERT INTO analysis_jobs (call_id) VALUES (${callId})
              ON CONFLICT (call_id) DO UPDATE
                SET state = 'pending', attempts = 0, run_after = now(), lease_owner = NULL, lease_expires_at = NULL,
                    last_error = NULL, created_at = now(), updated_at = now()
                WHERE analysis_jobs.state IN ('done', 'failed')
              RETURNING call_id
            )
            SELECT call_id, pg_notify(${JOBS_QUEUED}, call_id) FROM reopened`
    })

    return {
      enqueue,
      /** Queues an ended job again; false when it is still pending or running. */
      reopen: (callId: CallId) => Effect.map(reopen(callId), Option.isSome),
      claim: (workerId: string, leaseSeconds: number) => claim({ workerId, leaseSeconds }),
      /** Extends the lease; false when the job is no longer this worker's. */
      renew: (callId: CallId, workerId: string, leaseSeconds: number) =>
        Effect.map(renew({ callId, workerId, leaseSeconds }), Option.isSome),
      finish: (callId: CallId, workerId: string, state: "done" | "failed", error: string | null) =>
        Effect.map(finish({ callId, workerId, state, error }), Option.isSome),
      /** Back to pending after `delaySeconds`; false when the job is no longer this worker's. */
      retryLater: (callId: CallId, workerId: string, error: string, delaySeconds: number) =>
        Effect.map(retryLater({ callId, workerId, error, delaySeconds }), Option.isSome),
      /** Gives the job back untouched (the worker is stopping): it does not count as an attempt. */
      release: (callId: CallId, workerId: string) => release({ callId, workerId }),
      /**
       * One element per job announced (queued, reopened or handed back) from the moment the stream
       * has started listening, by any process on this database; on a connection of its own, held
       * while the stream runs. PGlite: the announcements of this process's own instance.
       */
      queued: Stream.as(pg.listen(JOBS_QUEUED), undefined)
    } as const
  })
}) {}
