/**
 * Retention (issue 36; docs/portal.md "Retention"): the tenant's setting, and the pass that applies
 * it. A recording older than `audio_days` leaves the blob store (local or S3) and the call notes
 * when (`audio_removed_at`; the analysis stays, re-analysis is 409); a call older than
 * `analysis_days` is deleted as `DELETE /v1/teams/calls/{call_id}` deletes it (`CallRemoval`: its
 * search entries, report, outcome record and deliveries with it; the ledger keeps its charge), the
 * audit row naming the retention pass. Calls still queued or processing wait until they end. An
 * account its owner closed is deleted whole once ACCOUNT_CLOSE_GRACE_DAYS have passed: its calls
 * one by one, their recordings with them, then the tenant and all that cascades from it. Each pass
 * logs its counts; the background runs one every RETENTION_INTERVAL_SECONDS.
 */
import { type ClientId, type CloseAccountRequest, Conflict, Forbidden, type RetentionSettings } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { CallRemoval } from "../calls/CallRemoval.js"
import { BlobStore } from "../calls/BlobStore.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { ApiKeysRepo } from "../tenancy/ApiKeysRepo.js"
import { TenantKeys } from "../tenancy/TenantKeys.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { RetentionRepo } from "./RetentionRepo.js"

const RETENTION: Actor = { id: "system:retention", type: "system", ip: null }
const DAY = 86_400_000

export class Retention extends Effect.Service<Retention>()("Retention", {
  effect: Effect.gen(function* () {
    const repo = yield* RetentionRepo
    const removal = yield* CallRemoval
    const blobs = yield* BlobStore
    const audit = yield* AuditLog
    const transactions = yield* Transactions
    const tenants = yield* TenantsRepo
    const tenantKeys = yield* TenantKeys
    const keys = yield* ApiKeysRepo
    const config = yield* AppConfig

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

    /**
     * Closes the account (its owner, naming the company to confirm): its API keys stop at once,
     * its users may still sign in and export until the grace period ends, then `pass` deletes it.
     */
    const close = Effect.fn("Retention.close")(function* (caller: Caller, req: CloseAccountRequest) {
      if (caller.user.role !== "owner") return yield* new Forbidden({ message: "only an owner can close the account" })
      const tenant = yield* tenants.get(caller.clientId)
      if (req.company_name !== tenant.company_name) {
        return yield* new Conflict({ message: "to close the account, give its company name exactly as it is" })
      }
      const closed = yield* transactions.run(
        Effect.gen(function* () {
          const closing = yield* repo.close(caller.clientId)
          if (Option.isNone(closing)) return Option.none()
          const n = yield* keys.revokeAll(caller.clientId)
          const deletedAfter = new Date(closing.value.closing_at.getTime() + config.accountCloseGraceDays * DAY)
          yield* audit.record(caller.clientId, caller.actor, {
            action: "account.closing",
            targetType: "tenant",
            targetId: caller.clientId,
            metadata: { api_keys_revoked: n, deleted_after: deletedAfter.toISOString() }
          })
          return Option.some({ closingAt: closing.value.closing_at, deletedAfter, revoked: n })
        })
      ).pipe(Effect.orDie)
      if (Option.isNone(closed)) return yield* new Conflict({ message: "the account is closing already" })
      yield* tenantKeys.forget
      return {
        client_id: caller.clientId,
        closing_at: closed.value.closingAt.toISOString(),
        deleted_after: closed.value.deletedAfter.toISOString(),
        api_keys_revoked: closed.value.revoked
      }
    })

    /** Keeps a closing account after all (its owner), while the grace period runs: the pass then deletes nothing of it. */
    const reopen = Effect.fn("Retention.reopen")(function* (caller: Caller) {
      if (caller.user.role !== "owner") return yield* new Forbidden({ message: "only an owner can keep the account open" })
      const reopened = yield* transactions.run(
        Effect.gen(function* () {
          const row = yield* repo.reopen(caller.clientId)
          if (Option.isSome(row)) {
            yield* audit.record(caller.clientId, caller.actor, { action: "account.reopened", targetType: "tenant", targetId: caller.clientId })
          }
          return Option.isSome(row)
        })
      ).pipe(Effect.orDie)
      if (!reopened) return yield* new Conflict({ message: "the account is not closing" })
      return { client_id: caller.clientId, closing: false as const }
    })

    /** Deletes a closed account: its calls one by one (their recordings with them), then the tenant. */
    const deleteAccount = (clientId: ClientId) =>
      Effect.gen(function* () {
        let calls = 0
        for (;;) {
          const page = yield* repo.callsOf(clientId)
          if (page.length === 0) break
          for (const c of page) {
            calls += yield* removal.remove(clientId, c.call_id, RETENTION).pipe(Effect.as(1), Effect.catchTag("NotFound", () => Effect.succeed(0)))
          }
        }
        yield* repo.deleteTenant(clientId)
        yield* Effect.logInfo("a closed account was deleted").pipe(Effect.annotateLogs({ client_id: clientId, calls_deleted: calls }))
        return calls
      })

    /** One pass at `now`: the recordings, then the calls, past their tenants' settings; then the accounts closed past their grace. */
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
      let accountsDeleted = 0
      for (const due of yield* repo.closedDue({ now, graceDays: config.accountCloseGraceDays })) {
        callsDeleted += yield* deleteAccount(due.client_id)
        accountsDeleted++
      }
      if (audioRemoved + callsDeleted + accountsDeleted > 0) {
        yield* Effect.logInfo("retention pass").pipe(
          Effect.annotateLogs({ audio_removed: audioRemoved, calls_deleted: callsDeleted, accounts_deleted: accountsDeleted })
        )
      }
      return { audio_removed: audioRemoved, calls_deleted: callsDeleted, accounts_deleted: accountsDeleted }
    }, Effect.orDie)

    return { get, save, close, reopen, pass } as const
  }),
  dependencies: [
    RetentionRepo.Default,
    CallRemoval.Default,
    BlobStore.Default,
    AuditLog.Default,
    Transactions.Default,
    TenantsRepo.Default,
    TenantKeys.Default,
    ApiKeysRepo.Default
  ]
}) {}
