/**
 * Deleting a call (issue 36, `DELETE /v1/teams/calls/{call_id}`): in one transaction the call row
 * and all that hangs off it (its analysis, transcript and search documents live on the row; the
 * job, outcome record, manual audits, pins, CRM sync and callback cascade), its webhook deliveries
 * and events, the chat answers that quoted it (their words replaced: `ConversationRepo.forgetCall`),
 * and the audit row `call.deleted`; then, once that committed, its audio in the blob
 * store (local directory or S3). The credit ledger keeps the call's charge with the call id only.
 * A call being analysed is deleted all the same: the worker finds no row to complete.
 */
import { type CallId, type ClientId, NotFound } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { ConversationRepo } from "../conversation/ConversationRepo.js"
import { Transactions } from "../db/Transactions.js"
import { EventsRepo } from "../events/EventsRepo.js"
import { WebhooksRepo } from "../events/WebhooksRepo.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { BlobStore } from "./BlobStore.js"
import { CallsRepo } from "./CallsRepo.js"

export class CallRemoval extends Effect.Service<CallRemoval>()("CallRemoval", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const calls = yield* CallsRepo
    const webhooks = yield* WebhooksRepo
    const events = yield* EventsRepo
    const conversations = yield* ConversationRepo
    const ledger = yield* LedgerRepo
    const audit = yield* AuditLog
    const blobs = yield* BlobStore

    const remove = Effect.fn("CallRemoval.remove")(function* (clientId: ClientId, callId: CallId, actor: Actor) {
      const removed = yield* transactions.run(
        Effect.gen(function* () {
          const row = yield* calls.remove(clientId, callId)
          if (Option.isNone(row)) return Option.none()
          yield* webhooks.forgetCall({ clientId, callId })
          yield* events.forgetCall({ clientId, callId })
          yield* conversations.forgetCall({ clientId, callId })
          const charged = yield* ledger.chargedFor(callId)
          yield* audit.record(clientId, actor, {
            action: "call.deleted",
            targetType: "call",
            targetId: callId,
            metadata: { status: row.value.status, credits_charged: charged }
          })
          return Option.some({ blobKey: row.value.blob_key, charged })
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      if (Option.isNone(removed)) return yield* new NotFound({ message: `no call ${callId}` })
      // after the commit: a failed removal leaves an orphan file, never a call without its audio
      yield* blobs.remove(removed.value.blobKey).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("a deleted call's audio could not be removed from the blob store", cause))
      )
      return { call_id: callId, deleted: true as const, credits_charged: removed.value.charged }
    })

    return { remove } as const
  }),
  dependencies: [CallsRepo.Default, WebhooksRepo.Default, EventsRepo.Default, ConversationRepo.Default, LedgerRepo.Default, AuditLog.Default, Transactions.Default, BlobStore.Default]
}) {}
