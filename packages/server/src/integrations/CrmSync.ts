/**
 * The crm-a outcome sync, for every tenant whose crm-a connection has `sync_outcomes`, every
 * `CRM_SYNC_INTERVAL_SECONDS` (`CrmSyncLive`, run with the analysis workers; `CrmSync.runOnce`
 * runs one pass now). Each pass, per tenant:
 *
 * 1. **Recorded outcomes become notes.** An outcome a person recorded (or changed) in the last 30
 *    days, of a call with an `external_call_id`, is written once as a note on the matching deal.
 * 2. **Closed deals fill the outcome truth.** Deals in `closedwon` / `closedlost` changed since the
 *    last pass are read back; each gives its outcome (won or lost, amount, currency, close date,
 *    stage, lost reason) to the tenant's calls that match it and have no outcome a person recorded:
 *    a person's record is never overwritten. Each record filled has an audit row (actor
 *    `system:crm-a`).
 *
 * **Matching rule.** A call matches a deal when its `external_call_id` is the deal's id
 * (`hs_object_id`, digits), or when its `external_call_id` is an e-mail address (the buyer's) of a
 * contact associated with the deal; for a note, the buyer's most recently changed deal is the one.
 * An external id of any other shape matches no deal.
 *
 * A token the CRM refuses (401/403) marks the connection `error` with the CRM's reason; any other
 * failure is kept as its `last_error` and tried again next pass. No token goes into a log line,
 * a row or an error: reasons are blanked of it (lib/Redact.ts).
 */
import type { ClientId } from "@callsight/api-spec"
import { Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { redact } from "../lib/Redact.js"
import { summaryLines } from "../views/SummaryText.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import { Secrets } from "../tenancy/Secrets.js"
import { type Deal, CrmHubSpot, HubSpotFailed } from "./CrmHubSpot.js"
import { CrmSyncRepo, type OutcomeToWrite, type SyncingRow } from "./CrmSyncRepo.js"

const PROVIDER = "crm-a"
const SYSTEM = { id: "system:crm-a", type: "system" as const, ip: null }
/** Outcomes written as notes per tenant and pass; the rest wait for the next pass. */
const NOTES_PER_PASS = 100
/** Pages of closed deals (100 each) read per tenant and pass; the next pass goes on from there. */
const DEAL_PAGES_PER_PASS = 10

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DEAL_ID = /^\d{1,30}$/

const OUTCOME_LABELS: Record<string, string> = { won: "Won", lost: "Lost", no_decision: "No decision", open: "Open" }

/**
 * The note a deal gets of a recorded outcome: one line of the outcome, then the call's summary
 * (what the buyer needs, what was agreed, open risks, with the quotes), when its analysis has one.
 */
export const noteBody = (o: OutcomeToWrite): string =>
  [outcomeLine(o), ...(o.summary === null ? [] : ["Call summary", ...summaryLines(o.summary)])].join("\n")

const outcomeLine = (o: OutcomeToWrite): string =>
  [
    `Callsight call outcome: ${OUTCOME_LABELS[o.outcome] ?? o.outcome}`,
    o.deal_value === null ? null : `deal value ${o.deal_value}${o.currency === null ? "" : ` ${o.currency}`}`,
    o.closed_at === null ? null : `closed ${o.closed_at.slice(0, 10)}`,
    o.stage === null ? null : `stage: ${o.stage}`,
    o.reason === null ? null : `reason: ${o.reason}`,
    o.notes === null ? null : `notes: ${o.notes}`,
    `(call ${o.call_id}, external id ${o.external_call_id})`
  ].filter((part) => part !== null).join(" · ")

const amountOf = (amount: string | null): number | null => {
  const value = amount === null || amount.trim() === "" ? NaN : Number(amount)
  return Number.isFinite(value) && value >= 0 ? value : null
}

const instantOf = (text: string | null): string | null => {
  if (text === null || text === "") return null
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null
}

/** What the call's outcome truth becomes from a closed deal. */
const outcomeOf = (clientId: ClientId, deal: Deal, emails: ReadonlyArray<string>) => ({
  clientId,
  dealId: deal.id,
  emails,
  outcome: deal.stage === "closedwon" ? "won" as const : "lost" as const,
  dealValue: amountOf(deal.amount),
  currency: deal.currency !== null && /^[A-Z]{3}$/.test(deal.currency) ? deal.currency : null,
  closedAt: instantOf(deal.closeDate),
  stage: deal.stage,
  reason: deal.stage === "closedlost" && deal.closedLostReason !== null && deal.closedLostReason !== "" ? deal.closedLostReason : null,
  notes: `From crm-a deal ${deal.id}${deal.name === null || deal.name === "" ? "" : ` (${deal.name})`}`
})

/** The CRM refused the token itself (revoked, or without the scopes): the connection is in error. */
const refusesToken = (e: HubSpotFailed) => e.status === 401 || e.status === 403

const TokenSecrets = Schema.parseJson(Schema.Struct({ access_token: Schema.String }))

/** What one pass did, over every tenant. */
export interface SyncSummary {
  readonly tenants: number
  readonly notesWritten: number
  readonly outcomesFilled: number
  readonly failures: number
}

export class CrmSync extends Effect.Service<CrmSync>()("CrmSync", {
  effect: Effect.gen(function* () {
    const repo = yield* CrmSyncRepo
    const hubspot = yield* CrmHubSpot
    const secrets = yield* Secrets
    const audit = yield* AuditLog
    const transactions = yield* Transactions

    /**
     * Writes the tenant's new outcomes to their deals: how many notes were written, and why the
     * last one that failed did. A refused token stops the pass (the others would fail alike).
     */
    const writeNotes = (clientId: ClientId, token: string) =>
      Effect.gen(function* () {
        let written = 0
        let lastError: string | null = null
        for (const outcome of yield* repo.toWrite(clientId, PROVIDER, NOTES_PER_PASS)) {
          const claimed = yield* repo.claim({ clientId, callId: outcome.call_id, provider: PROVIDER, version: outcome.version })
          if (Option.isNone(claimed)) continue
          const externalId = outcome.external_call_id.trim()
          const finish = (state: "written" | "no_deal" | "failed", dealId: string | null, noteId: string | null) =>
            repo.finish({ callId: outcome.call_id, provider: PROVIDER, state, dealId, noteId })
          const write = Effect.gen(function* () {
            const deal = yield* DEAL_ID.test(externalId)
              ? hubspot.dealById(token, externalId)
              : EMAIL.test(externalId)
              ? hubspot.latestDealOfContact(token, externalId.toLowerCase())
              : Effect.succeed(undefined)
            if (deal === undefined) return yield* finish("no_deal", null, null)
            const noteId = yield* hubspot.addNote(token, deal.id, noteBody(outcome))
            yield* finish("written", deal.id, noteId)
            written++
          })
          yield* write.pipe(
            Effect.catchTag("HubSpotFailed", (e) =>
              Effect.zipRight(
                finish("failed", null, null),
                refusesToken(e) ? Effect.fail(e) : Effect.sync(() => {
                  lastError = `a note for call ${outcome.call_id} failed${e.status === null ? "" : ` (HTTP ${e.status})`}: ${e.reason}`
                })
              ))
          )
        }
        return { written, lastError }
      })

    /**
     * Reads closed deals changed since the last pass into the outcome truth of matching calls;
     * answers how many records were filled and how far the deals were read.
     */
    const readClosedDeals = (clientId: ClientId, token: string, since: Date | null) =>
      Effect.gen(function* () {
        let filled = 0
        let through: number | null = null
        let after: string | undefined = undefined
        for (let page = 0; page < DEAL_PAGES_PER_PASS; page++) {
          const found: { deals: ReadonlyArray<Deal>; after: string | undefined } = yield* hubspot.closedDeals(token, since, after)
          const deals = found.deals.filter((d) => d.stage === "closedwon" || d.stage === "closedlost")
          const emails = yield* hubspot.contactEmails(token, deals.map((d) => d.id))
          for (const deal of deals) {
            const changed = yield* transactions.run(
              Effect.gen(function* () {
                const calls = yield* repo.fill(outcomeOf(clientId, deal, emails.get(deal.id) ?? []))
                for (const call of calls) {
                  yield* audit.record(clientId, SYSTEM, {
                    action: "outcome_truth.synced",
                    targetType: "call",
                    targetId: call.call_id,
                    metadata: { provider: PROVIDER, deal_id: deal.id, outcome: deal.stage === "closedwon" ? "won" : "lost" }
                  })
                }
                return calls.length
              })
            )
            filled += changed
          }
          for (const deal of found.deals) {
            const modified = instantOf(deal.lastModified)
            if (modified !== null) through = Math.max(through ?? 0, Date.parse(modified))
          }
          after = found.after
          if (after === undefined) break
        }
        return { filled, through: through === null ? null : new Date(through).toISOString() }
      })

    /** One tenant's pass; a failure is kept on the connection, never raised. */
    const syncTenant = (connection: SyncingRow) =>
      Effect.gen(function* () {
        const clientId = connection.client_id
        const done = (status: "connected" | "error", lastError: string | null, syncedThrough: string | null) =>
          repo.done({ clientId, provider: PROVIDER, sealedSecrets: connection.sealed_secrets, status, lastError, syncedThrough })
        const opened = yield* secrets.decrypt(connection.sealed_secrets).pipe(
          Effect.flatMap(Schema.decode(TokenSecrets)),
          Effect.option
        )
        if (Option.isNone(opened)) {
          yield* done("error", "the stored token cannot be opened with the configured SECRETS_KEY: save the token again", null)
          return { notes: 0, filled: 0, failed: true }
        }
        const token = opened.value.access_token
        return yield* Effect.gen(function* () {
          const notes = yield* writeNotes(clientId, token)
          const pulled = yield* readClosedDeals(clientId, token, connection.synced_through === null ? null : new Date(connection.synced_through))
          yield* done("connected", notes.lastError === null ? null : redact(notes.lastError, [token]), pulled.through)
          return { notes: notes.written, filled: pulled.filled, failed: notes.lastError !== null }
        }).pipe(
          Effect.catchTag("HubSpotFailed", (e: HubSpotFailed) => {
            const refused = refusesToken(e)
            const reason = redact(
              refused ? `crm-a refused the token (HTTP ${e.status}): ${e.reason}` : `crm-a sync failed${e.status === null ? "" : ` (HTTP ${e.status})`}: ${e.reason}`,
              [token]
            )
            return Effect.logWarning("crm-a sync failed").pipe(
              Effect.annotateLogs({ client_id: clientId, reason }),
              Effect.zipRight(done(refused ? "error" : "connected", reason, null)),
              Effect.as({ notes: 0, filled: 0, failed: true })
            )
          })
        )
      }).pipe(Effect.withSpan("CrmSync.tenant"))

    /** One pass over every tenant whose crm-a syncs outcomes, now. */
    const runOnce: Effect.Effect<SyncSummary> = Effect.gen(function* () {
      const connections = yield* repo.syncing(PROVIDER)
      const results = yield* Effect.forEach(connections, syncTenant, { concurrency: 4 })
      return {
        tenants: connections.length,
        notesWritten: results.reduce((n, r) => n + r.notes, 0),
        outcomesFilled: results.reduce((n, r) => n + r.filled, 0),
        failures: results.filter((r) => r.failed).length
      }
    }).pipe(Effect.orDie, Effect.withSpan("CrmSync.runOnce"))

    return { runOnce } as const
  }),
  dependencies: [CrmSyncRepo.Default, CrmHubSpot.Default, Secrets.Default, AuditLog.Default, Transactions.Default]
}) {}

/** The sync every `CRM_SYNC_INTERVAL_SECONDS` for the life of the layer; a pass that dies is logged, the next one runs. */
export const CrmSyncLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const sync = yield* CrmSync
    const pass = sync.runOnce.pipe(
      Effect.tap((s) => s.notesWritten + s.outcomesFilled + s.failures > 0 ? Effect.logInfo("crm-a sync pass").pipe(Effect.annotateLogs({ ...s })) : Effect.void),
      Effect.catchAllCause((cause) => Effect.logError("crm-a sync pass failed", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(pass, Schedule.spaced(Duration.seconds(config.crmSyncIntervalSeconds))))
  })
).pipe(Layer.provide(CrmSync.Default))
