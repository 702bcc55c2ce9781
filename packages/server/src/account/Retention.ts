/**
 * Retention (issue 36; docs/portal.md "Retention"): the tenant's setting, and the pass that applies
 * it. A recording older than `audio_days` leaves the blob store (local or S3) and the call notes
 * when (`audio_removed_at`; the analysis stays, re-analysis is 409); a call older than
 * `analysis_days` is deleted as `DELETE /v1/teams/calls/{call_id}` deletes it (`CallRemoval`: its
 * search entries, report, outcome record and deliveries with it; the ledger keeps its charge), the
 * audit row naming the retention pass. Calls still queued or processing wait until they end. Each
 * pass logs its counts; the background runs one every RETENTION_INTERVAL_SECONDS.
 */
import { type ClientId, type RetentionSettings } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { CallRemoval } from "../calls/CallRemoval.js"
import { BlobStore } from "../calls/BlobStore.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { Transactions } from "../db/Transactions.js"
import { RetentionRepo } from "./RetentionRepo.js"

const RETENTION: Actor = { id: "system:retention", type: "system", ip: null }

export class Retention extends Effect.Service<Retention>()("Retention", {
  effect: Effect.gen(function* () {
    const repo = yield* RetentionRepo
    const removal = yield* CallRemoval
    const blobs = yield* BlobStore
    const audit = yield* AuditLog
    const transactions = yield* Transactions

    const get = Effect.fn("Retention.get")(function* (clientId: ClientId) {
      const found = yield* repo.get(clientId)
      return Option.getOrElse(found, () => ({ audio_days: null, analysis_days: null, updated_at: null }))
    }, Effect.orDie)

    const save = Effect.fn("Retention.save")(function* (caller: Caller, req: RetentionSettings) {
      return yield* transactions.run(
        Effect.gen(function* () {
          const saved = yield* repo.save({ clientId: caller.clientId, audioDays: req.audio_days, analysisDays: req.analysis_days })
          yield* audit.record(caller.clientId, caller.actor, {
            action: "retention.saved",
            targetType: "tenant",
            targetId: caller.clientId,
            metadata: { audio_days: req.audio_days, analysis_days: req.analysis_days }
          })
          return saved
        })
      )
    }, Effect.orDie)

    /** One pass at `now`: the recordings, then the calls, past their tenants' settings. */
    const pass = Effect.fn("Retention.pass")(function* (now: Date = new Date()) {
      let audioRemoved = 0
      for (const due of yield* repo.audioDue(now)) {
        yield* blobs.remove(due.blob_key)
        yield* repo.markAudioRemoved(due.call_id)
        audioRemoved++
      }
      let callsDeleted = 0
      for (const due of yield* repo.callsDue(now)) {
        const removed = yield* removal.remove(due.client_id, due.call_id, RETENTION).pipe(Effect.as(1), Effect.catchTag("NotFound", () => Effect.succeed(0)))
        callsDeleted += removed
      }
      if (audioRemoved + callsDeleted > 0) {
        yield* Effect.logInfo("retention pass").pipe(Effect.annotateLogs({ audio_removed: audioRemoved, calls_deleted: callsDeleted }))
      }
      return { audio_removed: audioRemoved, calls_deleted: callsDeleted }
    }, Effect.orDie)

    return { get, save, pass } as const
  }),
  dependencies: [RetentionRepo.Default, CallRemoval.Default, BlobStore.Default, AuditLog.Default, Transactions.Default]
}) {}
