/**
 * The durable analysis queue (ARCHITECTURE.md, "Processes and scale"). A worker claims a job with
 * `FOR UPDATE SKIP LOCKED` and holds it under a lease it renews; a job whose lease expired (its
 * worker died) is claimed again. Every change after the claim is conditional on still holding the
 * lease, so two workers can never both finish one job.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"

export interface ClaimedJob {
  readonly call_id: string
  /** Attempts including this one. */
  readonly attempts: number
}

export class JobQueue extends Effect.Service<JobQueue>()("JobQueue", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const enqueue = (callId: string) => sql`INSERT INTO analysis_jobs (call_id) VALUES (${callId})`

    const claim = (workerId: string, leaseSeconds: number) =>
      sql<ClaimedJob>`
        UPDATE analysis_jobs
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
        RETURNING call_id, attempts`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

    /** Extends the lease; false when the job is no longer this worker's. */
    const renew = (callId: string, workerId: string, leaseSeconds: number) =>
      sql`UPDATE analysis_jobs SET lease_expires_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
          WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
          RETURNING call_id`.pipe(Effect.map((rows) => rows.length > 0))

    const finish = (callId: string, workerId: string, state: "done" | "failed", error: string | null) =>
      sql`UPDATE analysis_jobs SET state = ${state}, last_error = ${error}, lease_owner = NULL, lease_expires_at = NULL,
                                   updated_at = now()
          WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
          RETURNING call_id`.pipe(Effect.map((rows) => rows.length > 0))

    /** Back to pending after `delaySeconds`; false when the job is no longer this worker's. */
    const retryLater = (callId: string, workerId: string, error: string, delaySeconds: number) =>
      sql`UPDATE analysis_jobs SET state = 'pending', last_error = ${error}, lease_owner = NULL, lease_expires_at = NULL,
                                   run_after = now() + make_interval(secs => ${delaySeconds}), updated_at = now()
          WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'
          RETURNING call_id`.pipe(Effect.map((rows) => rows.length > 0))

    /** Gives the job back untouched (the worker is stopping): it does not count as an attempt. */
    const release = (callId: string, workerId: string) =>
      sql`UPDATE analysis_jobs SET state = 'pending', attempts = attempts - 1, lease_owner = NULL, lease_expires_at = NULL,
                                   run_after = now(), updated_at = now()
          WHERE call_id = ${callId} AND lease_owner = ${workerId} AND state = 'running'`

    return { enqueue, claim, renew, finish, retryLater, release } as const
  })
}) {}
