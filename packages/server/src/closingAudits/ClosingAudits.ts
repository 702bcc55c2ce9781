/**
 * The Team Closing Audit (issue 38, item 6; docs/closing-audit.md). Making one resolves its calls
 * (the ones named, all completed calls of the tenant; or the last N completed of each closer),
 * computes its figures (views/ClosingAudit.ts) and, in one transaction with the tenant's row
 * locked, checks the free credits, stores the audit and charges its price once: a failure before
 * the commit charges nothing. An `Idempotency-Key` answers a repeated request with the audit made
 * the first time (charged once); the key with another request is 409.
 *
 * An audit keeps which calls it covers, not its figures: each read computes them from those calls
 * as they are now, so a call deleted since drops out (`calls_removed`) and nothing of it stays.
 */
import {
  type ClientId,
  type ClosingAudit,
  CLOSING_AUDIT_TOTAL_MAX,
  ClosingAuditId,
  type CreateClosingAuditRequest,
  Conflict,
  NotFound,
  PaymentRequired,
  ServiceUnavailable,
  ValidationFailed
} from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { HtmlToPdf } from "../lib/HtmlToPdf.js"
import { newId } from "../lib/Ids.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { type AuditCallInput, closingAuditFigures } from "../views/ClosingAudit.js"
import { closingAuditHtml } from "../views/ClosingAuditHtml.js"
import { type AuditCallRow, type AuditRow, ClosingAuditsRepo } from "./ClosingAuditsRepo.js"

const DEFAULT_TITLE = "Team Closing Audit"

/** A call the audit can read: completed, with its analysis. */
const asInput = (row: AuditCallRow): AuditCallInput | undefined =>
  row.status === "completed" && row.completed_at !== null && row.result !== null
    ? { ...row, completed_at: row.completed_at }
    : undefined

/** The request as the idempotency key remembers it. */
const normalized = (request: CreateClosingAuditRequest) => ({
  call_ids: request.call_ids ?? null,
  last_per_closer: request.last_per_closer ?? null,
  title: request.title ?? null
})

/** Whether a remembered request (read back from jsonb, its keys in the database's order) is this one. */
const sameRequest = (was: unknown, now: ReturnType<typeof normalized>) => {
  const w = (was ?? {}) as Record<string, unknown>
  return JSON.stringify([w.call_ids, w.last_per_closer, w.title]) === JSON.stringify([now.call_ids, now.last_per_closer, now.title])
}

export class ClosingAudits extends Effect.Service<ClosingAudits>()("ClosingAudits", {
  effect: Effect.gen(function* () {
    const repo = yield* ClosingAuditsRepo
    const ledger = yield* LedgerRepo
    const tenants = yield* TenantsRepo
    const transactions = yield* Transactions
    const auditLog = yield* AuditLog
    const pdf = yield* HtmlToPdf
    const config = yield* AppConfig

    const urlOf = (auditId: string) => `${config.publicBaseUrl}/v1/client-portal/closing-audits/${encodeURIComponent(auditId)}`

    const closersOf = (clientId: ClientId) =>
      Effect.map(repo.closers(clientId), (rows) => new Map(rows.map((r) => [r.email.toLowerCase(), r])))

    /** What the list and the audit both say of an audit: its row and its links. */
    const summaryOf = (row: AuditRow) => ({
      audit_id: ClosingAuditId.make(row.audit_id),
      title: row.title,
      created_at: row.created_at,
      selection: { mode: row.mode, last_per_closer: row.last_per_closer },
      calls: row.call_ids.length,
      credits_charged: row.credits,
      report_url: `${urlOf(row.audit_id)}/report`,
      pdf_url: `${urlOf(row.audit_id)}/report.pdf`
    })

    /** The audit as the API answers it: its row, and its figures over its calls as they are now. */
    const assemble = (clientId: ClientId, row: AuditRow, rows: ReadonlyArray<AuditCallRow>) =>
      Effect.gen(function* () {
        const inputs = rows.flatMap((r) => asInput(r) ?? [])
        const figures = closingAuditFigures(inputs, yield* closersOf(clientId))
        return {
          ...summaryOf(row),
          calls_removed: row.call_ids.length - figures.call_list.length,
          ...figures
        } satisfies ClosingAudit as ClosingAudit
      })

    const invalid = (loc: ReadonlyArray<string | number>, msg: string) =>
      new ValidationFailed({ detail: [{ loc: [...loc], msg, type: "value_error" }] })

    /** 422 unless exactly one way of choosing the calls is given, and no call is named twice. */
    const validate = (request: CreateClosingAuditRequest) =>
      Effect.gen(function* () {
        const byIds = request.call_ids !== undefined
        const byCloser = request.last_per_closer !== undefined
        if (byIds === byCloser) {
          return yield* invalid(["body"], "give exactly one of `call_ids` and `last_per_closer`")
        }
        const ids = request.call_ids ?? []
        const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i)
        if (twice >= 0) {
          return yield* invalid(["body", "call_ids", twice], `is the same call as call_ids[${ids.indexOf(ids[twice]!)}]`)
        }
      })

    /** The calls the request names, all completed calls of the tenant: 404 for one that is not the tenant's, 409 for one not completed. */
    const resolve = (clientId: ClientId, request: CreateClosingAuditRequest) =>
      Effect.gen(function* () {
        if (request.call_ids === undefined) {
          const rows = yield* repo.lastPerCloser(clientId, request.last_per_closer!, CLOSING_AUDIT_TOTAL_MAX)
          if (rows.length === 0) {
            return yield* new Conflict({ message: "no completed call of the tenant names a closer: nothing to audit" })
          }
          return rows
        }
        const rows = yield* repo.callsByIds(clientId, request.call_ids)
        const byId = new Map(rows.map((r) => [r.call_id, r]))
        const ordered: Array<AuditCallRow> = []
        for (const id of request.call_ids) {
          const row = byId.get(id)
          if (row === undefined) return yield* new NotFound({ message: `no call ${id}` })
          if (asInput(row) === undefined) {
            return yield* new Conflict({ message: `call ${id} is ${row.status}: only completed calls can be audited` })
          }
          ordered.push(row)
        }
        return ordered
      })

    const create = Effect.fn("ClosingAudits.create")(function* (
      clientId: ClientId,
      actor: Actor,
      request: CreateClosingAuditRequest,
      idempotencyKey: string | undefined
    ) {
      yield* validate(request)
      const remembered = normalized(request)
      const price = config.closingAuditCredits
      const made = yield* transactions.run(
        Effect.gen(function* () {
          // one change of the tenant's ledger at a time
          if (Option.isNone(yield* tenants.lock(clientId))) return yield* new NotFound({ message: `no client ${clientId}` })
          if (idempotencyKey !== undefined) {
            const earlier = yield* repo.findByKey(clientId, idempotencyKey)
            if (Option.isSome(earlier)) {
              if (!sameRequest(earlier.value.request, remembered)) {
                return yield* new Conflict({ message: "this Idempotency-Key was used with another request" })
              }
              return earlier.value.audit_id
            }
          }
          const rows = yield* resolve(clientId, request)
          if (price > 0) {
            const free = (yield* ledger.balance(clientId)) - (yield* ledger.reserved(clientId))
            if (free < price) {
              return yield* new PaymentRequired({
                message: `a closing audit costs ${price} credits and ${Math.max(0, free)} are free (the balance less the calls in progress)`
              })
            }
          }
          const auditId = newId("cla")
          yield* repo.insert({
            auditId,
            clientId,
            title: request.title ?? DEFAULT_TITLE,
            mode: request.call_ids === undefined ? "last_per_closer" : "call_ids",
            lastPerCloser: request.last_per_closer ?? null,
            callIds: rows.map((r) => r.call_id),
            credits: price,
            createdBy: actor.id,
            idempotencyKey: idempotencyKey ?? null,
            request: remembered
          })
          if (price > 0) yield* repo.charge(clientId, auditId, price)
          yield* auditLog.record(clientId, actor, {
            action: "closing_audit.created",
            targetType: "closing_audit",
            targetId: auditId,
            metadata: { calls: rows.length, credits: price }
          })
          return auditId
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return yield* get(clientId, made)
    })

    const get = Effect.fn("ClosingAudits.get")(function* (clientId: ClientId, auditId: string) {
      const row = yield* repo.find(clientId, auditId)
      if (Option.isNone(row)) return yield* new NotFound({ message: `no closing audit ${auditId}` })
      const found = yield* repo.callsByIds(clientId, row.value.call_ids)
      const byId = new Map(found.map((r) => [r.call_id, r]))
      return yield* assemble(clientId, row.value, row.value.call_ids.flatMap((id) => byId.get(id) ?? []))
    })

    const list = Effect.fn("ClosingAudits.list")(function* (clientId: ClientId, limit: number) {
      const rows = yield* repo.list(clientId, limit)
      return {
        audits: rows.map(summaryOf)
      }
    })

    const reportHtml = Effect.fn("ClosingAudits.reportHtml")(function* (clientId: ClientId, auditId: string) {
      return closingAuditHtml(yield* get(clientId, auditId))
    })

    const reportPdf = Effect.fn("ClosingAudits.reportPdf")(function* (clientId: ClientId, auditId: string) {
      const html = yield* reportHtml(clientId, auditId)
      return yield* pdf.render(html).pipe(
        Effect.catchTag("PdfUnavailable", (e) => Effect.fail(new ServiceUnavailable({ message: e.message })))
      )
    })

    return { create, get, list, reportHtml, reportPdf } as const
  }),
  dependencies: [ClosingAuditsRepo.Default, LedgerRepo.Default, TenantsRepo.Default, Transactions.Default, AuditLog.Default, HtmlToPdf.Default]
}) {}
