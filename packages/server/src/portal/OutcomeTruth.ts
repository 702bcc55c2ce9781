/**
 * Outcome truth: what became of the deal behind a call (won, lost, no decision, still open), the
 * ground truth the scores are measured against. One record per call of the tenant (another
 * tenant's call, or none, is 404); a PUT replaces it. The backlog lists the tenant's completed
 * calls without a record, oldest first (the longer a call waits, the likelier its outcome is
 * known and forgotten), then by estimated value: the market profile's average deal size.
 */
import { type CallId, type ClientId, NotFound, type OutcomeTruthRequest } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { CallsRepo } from "../calls/CallsRepo.js"
import { Transactions } from "../db/Transactions.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { OutcomeTruthRepo } from "./OutcomeTruthRepo.js"

export class OutcomeTruth extends Effect.Service<OutcomeTruth>()("OutcomeTruth", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* OutcomeTruthRepo
    const calls = yield* CallsRepo
    const audit = yield* AuditLog

    const callExists = (clientId: ClientId, callId: CallId) =>
      Effect.flatMap(calls.exists(clientId, callId), (exists) =>
        exists ? Effect.void : Effect.fail(new NotFound({ message: `no call ${callId}` })))

    const get = Effect.fn("OutcomeTruth.get")(function* (clientId: ClientId, callId: CallId) {
      yield* callExists(clientId, callId)
      return Option.getOrNull(yield* repo.find(clientId, callId))
    }, Effect.catchTag("SqlError", Effect.die))

    const record = Effect.fn("OutcomeTruth.record")(function* (caller: Caller, callId: CallId, req: OutcomeTruthRequest) {
      const clientId = caller.clientId
      return yield* transactions.run(
        Effect.gen(function* () {
          yield* callExists(clientId, callId)
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
      options: { readonly limit: number; readonly include_test_data: boolean }
    ) {
      const [calls, total] = yield* Effect.all([
        repo.backlog(clientId, options.limit, options.include_test_data),
        repo.backlogCount(clientId, options.include_test_data)
      ])
      return { calls, total, limit: options.limit }
    }, Effect.orDie)

    return { get, record, backlog } as const
  }),
  dependencies: [OutcomeTruthRepo.Default, CallsRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
