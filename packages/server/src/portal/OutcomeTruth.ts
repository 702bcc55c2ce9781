/**
 * Outcome truth: what became of the deal behind a call (won, lost, no decision, still open), the
 * ground truth the scores are measured against. One record per call of the tenant (another
 * tenant's call, or none, is 404); a PUT replaces it. The backlog lists the tenant's completed
 * calls without a record, oldest first (the longer a call waits, the likelier its outcome is
 * known and forgotten), then by estimated value: the market profile's average deal size.
 *
 * Whose calls (issue 36): every operation takes the caller's `Sees` explicitly. A rep reads,
 * records and lists outcomes of their own calls only: another rep's call is the same 404 as another
 * tenant's (one query answers "the tenant has it and the caller sees it", so the two cannot be told
 * apart); a member who is no closer finds no call and an empty backlog; managers, keys and staff
 * see the team (`TEAM`).
 */
import { type CallId, type ClientId, NotFound, type OutcomeTruthRequest, type Sees } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { OutcomeTruthRepo } from "./OutcomeTruthRepo.js"

export class OutcomeTruth extends Effect.Service<OutcomeTruth>()("OutcomeTruth", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* OutcomeTruthRepo
    const audit = yield* AuditLog

    /** 404 unless the tenant has the call and `sees` covers it. */
    const callSeen = (clientId: ClientId, sees: Sees, callId: CallId) =>
      Effect.flatMap(repo.callSeen(clientId, sees, callId), (seen) =>
        seen ? Effect.void : Effect.fail(new NotFound({ message: `no call ${callId}` })))

    const get = Effect.fn("OutcomeTruth.get")(function* (clientId: ClientId, sees: Sees, callId: CallId) {
      yield* callSeen(clientId, sees, callId)
      return Option.getOrNull(yield* repo.find(clientId, callId))
    }, Effect.catchTag("SqlError", Effect.die))

    const record = Effect.fn("OutcomeTruth.record")(function* (caller: Caller, callId: CallId, req: OutcomeTruthRequest) {
      const clientId = caller.clientId
      return yield* transactions.run(
        Effect.gen(function* () {
          yield* callSeen(clientId, caller.sees, callId)
          const row = yield* repo.upsert({
            callId,
            clientId,
            outcome: req.outcome,
            dealValue: req.deal_value ?? null,
            currency: req.currency ?? null,
            closedAt: req.closed_at ?? null,
            stage: req.stage ?? null,
            reason: req.reason ?? null,
            notes: req.notes ?? null,
            isTestData: req.is_test_data,
            leadSource: req.lead_source ?? null,
            icpLabel: req.icp_label ?? null,
            recordedBy: caller.user.userId
          })
          yield* audit.record(clientId, caller.actor, {
            action: "outcome_truth.recorded",
            targetType: "call",
            targetId: callId,
            metadata: {
              outcome: req.outcome,
              deal_value: req.deal_value ?? null,
              currency: req.currency ?? null,
              is_test_data: req.is_test_data,
              lead_source: req.lead_source ?? null,
              icp_label: req.icp_label ?? null
            }
          })
          return row
        })
      )
    }, Effect.catchTag("SqlError", Effect.die))

    const backlog = Effect.fn("OutcomeTruth.backlog")(function* (
      clientId: ClientId,
      sees: Sees,
      options: { readonly limit: number; readonly include_test_data: boolean }
    ) {
      const [calls, total] = yield* Effect.all([
        repo.backlog(clientId, sees, options.limit, options.include_test_data),
        repo.backlogCount(clientId, sees, options.include_test_data)
      ])
      return { calls, total, limit: options.limit }
    }, Effect.orDie)

    return { get, record, backlog } as const
  }),
  dependencies: [OutcomeTruthRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
