/**
 * Manual audits: a manager scores a completed call by scorecard dimension (0–100), and the audit
 * keeps the machine's scores of that moment beside the manager's. Per dimension the gap is manual
 * minus automated (null where the machine did not assess the dimension); `manual_overall` is the
 * mean of the manual scores, `automated_overall` the call's overall score as its report shows it,
 * `mean_absolute_gap` the mean of the gaps' sizes. Owners and admins audit any call of the team;
 * a member (a rep, issue 36) only their own calls. Every operation takes whose calls the caller
 * sees (`Sees`, passed explicitly; `TEAM` for the whole tenant): a rep reads only the audits of
 * their own calls, and another rep's audit or call is 404, the same answer as another tenant's (or
 * a missing one), so nothing tells them it exists. A call not completed is 409 (it has no scores
 * to compare yet).
 */
import {
  type CallId,
  type ClientId,
  Conflict,
  type ManualAudit,
  type ManualAuditRequest,
  NotFound,
  ScorecardDimensionName,
  type Sees
} from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { type AuditRow, ManualAuditsRepo } from "./ManualAuditsRepo.js"

type Dimension = typeof ScorecardDimensionName.Type
const DIMENSIONS: ReadonlyArray<Dimension> = ScorecardDimensionName.literals

const round1 = (x: number): number => Math.round(x * 10) / 10
const meanOf = (xs: ReadonlyArray<number>): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length)
const rounded = (x: number | null): number | null => (x === null ? null : round1(x))

/** An audit as the API answers it: the manager's and the machine's scores side by side, and the gaps. */
export const auditView = (row: AuditRow): typeof ManualAudit.Type => {
  const dimensions = DIMENSIONS.filter((d) => d in row.scores).map((dimension) => {
    const manual = row.scores[dimension]!
    const automated = row.automated[dimension] ?? null
    return { dimension, manual_score: manual, automated_score: automated, gap: automated === null ? null : manual - automated }
  })
  const gaps = dimensions.flatMap((d) => (d.gap === null ? [] : [Math.abs(d.gap)]))
  return {
    audit_id: row.audit_id,
    call_id: row.call_id,
    external_call_id: row.external_call_id,
    closer_id: row.closer_id,
    closer_email: row.closer_email,
    auditor_user_id: row.auditor_user_id,
    auditor_name: row.auditor_name,
    scores: row.scores,
    dimensions: dimensions.map((d) => ({ ...d, gap: rounded(d.gap) })),
    manual_overall: rounded(meanOf(dimensions.map((d) => d.manual_score))),
    automated_overall: rounded(row.automated_overall),
    mean_absolute_gap: rounded(meanOf(gaps)),
    notes: row.notes,
    created_at: row.created_at
  }
}

export class ManualAudits extends Effect.Service<ManualAudits>()("ManualAudits", {
  effect: Effect.gen(function* () {
    const repo = yield* ManualAuditsRepo
    const audit = yield* AuditLog
    const transactions = yield* Transactions

    const notFound = (auditId: string) => new NotFound({ message: `no manual audit ${auditId}` })

    const get = Effect.fn("ManualAudits.get")(function* (clientId: ClientId, sees: Sees, auditId: string) {
      const row = yield* repo.find(clientId, sees, auditId)
      if (Option.isNone(row)) return yield* notFound(auditId)
      return auditView(row.value)
    }, Effect.catchTag("SqlError", Effect.die))

    const list = Effect.fn("ManualAudits.list")(function* (
      clientId: ClientId,
      sees: Sees,
      params: { readonly limit: number; readonly offset: number; readonly call_id?: string | undefined }
    ) {
      const callId = params.call_id ?? null
      const [rows, total] = yield* Effect.all([
        repo.page(clientId, sees, params.limit, params.offset, callId),
        repo.count(clientId, sees, callId)
      ])
      return { audits: rows.map(auditView), total, limit: params.limit, offset: params.offset }
    }, Effect.catchTag("SqlError", Effect.die))

    /** An audit by `caller` of a call they see (`caller.sees`: a rep's own calls only; another's is 404). */
    const create = Effect.fn("ManualAudits.create")(function* (caller: Caller, req: ManualAuditRequest) {
      const { clientId, sees } = caller
      const auditId = newId("mau")
      yield* transactions.run(
        Effect.gen(function* () {
          const found = yield* repo.call(clientId, sees, req.call_id)
          if (Option.isNone(found)) return yield* new NotFound({ message: `no call ${req.call_id}` })
          const call = found.value
          if (call.status !== "completed" || call.scorecard === null) {
            return yield* new Conflict({
              message: `call ${req.call_id} is ${call.status}: only a completed analysis can be audited against the machine`
            })
          }
          // the machine's scores of the dimensions it assessed
          const automated: Record<string, number> = {}
          for (const d of call.scorecard.dimensions) {
            if (d.assessed && d.score !== null && (DIMENSIONS as ReadonlyArray<string>).includes(d.dimension)) automated[d.dimension] = d.score
          }
          yield* repo.insert({
            auditId,
            clientId,
            callId: req.call_id as CallId,
            closerEmail: call.closer_email,
            auditorUserId: caller.user.userId,
            scores: req.scores,
            automated,
            automatedOverall: call.scorecard.overall,
            notes: req.notes
          })
          yield* audit.record(clientId, caller.actor, {
            action: "manual_audit.created",
            targetType: "call",
            targetId: req.call_id,
            metadata: { audit_id: auditId, dimensions: Object.keys(req.scores) }
          })
        })
      )
      return yield* get(clientId, sees, auditId)
    }, Effect.catchTag("SqlError", Effect.die))

    return { get, list, create } as const
  }),
  dependencies: [ManualAuditsRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
