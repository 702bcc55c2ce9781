/**
 * How a call enters the analysis queue, whoever brings its file: an upload through the API
 * (audio/) or a recording the bot fetched (recorder/). One step, run inside the caller's
 * transaction with the tenant's row locked (`TenantsRepo.lock`), so usage is counted one call at a
 * time: the allowance is checked, the call and its job are inserted, its event recorded, and the
 * staged file moved under its key last, so a committed call always has its file.
 *
 * A call from the API takes a credit when it completes, so it needs a free one (the balance less
 * the calls in flight); a call of the recorder takes none. Both count against the plan's monthly
 * ingests (plus the admin's bonus of the month).
 *
 * The call's account and deal are decided here too, for either door, by the rules of
 * `DealAssignment.ts` (docs/deals.md): from the upload's `account` / `deal_id`, the deal's account,
 * or the meeting's attendees' domains.
 */
import type { CallId, CallTypeName, ClientId, Plan, RepChannelSetting } from "@callsight/api-spec"
import type { SqlError } from "@effect/sql"
import { Data, Effect } from "effect"
import type { AudioFormat } from "@callsight/analysis"
import { EventsRepo, type NewEvent } from "../events/EventsRepo.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { MONTHLY_INGESTS } from "../tenancy/Plans.js"
import { BlobStore, type StagedBlob } from "./BlobStore.js"
import { type CallSource, CallsRepo } from "./CallsRepo.js"
import { chooseAccount, chooseDeal, domainOfEmail } from "./DealAssignment.js"
import { DealsRepo } from "./DealsRepo.js"
import { JobsRepo } from "./JobsRepo.js"

/** The tenant may not add this call now: no free credit (API calls), or the month's ingests are used up. */
export class IntakeRefused extends Data.TaggedError("IntakeRefused")<{
  readonly reason: "no_credit" | "ingests_used_up"
  readonly message: string
}> {}

export interface Intake {
  readonly callId: CallId
  readonly clientId: ClientId
  /** The tenant's plan, read with its row locked. */
  readonly plan: typeof Plan.Type
  readonly staged: StagedBlob
  readonly format: AudioFormat
  readonly externalCallId: string | null
  readonly closerEmail: string | null
  /** What the upload said of the call: its type, its rep's channel (null: not said; the recorder says neither). */
  readonly callType: typeof CallTypeName.Type | null
  readonly repChannel: typeof RepChannelSetting.Type | null
  readonly source: CallSource
  /** When the meeting took place, when known (ISO-8601; null: the call counts at its upload time). */
  readonly meetingAt: string | null
  /** The meeting's attendees' addresses (the upload's `attendees`, the recorder's calendar event's invitees). */
  readonly attendees: ReadonlyArray<string>
  /** The upload's `account` (a company name or a domain) and `deal_id` (the uploader's or CRM's deal id); null: not given. */
  readonly account: string | null
  readonly externalDealId: string | null
  /** The event that says the call arrived (`upload_accepted` for the API, `recording_received` for the recorder). */
  readonly event: { readonly type: NewEvent["type"]; readonly platform: string }
}

/** Where a call's file is kept. */
export const blobKeyOf = (clientId: ClientId, callId: CallId, format: AudioFormat) => `${clientId}/${callId}.${format}`

export class CallIntake extends Effect.Service<CallIntake>()("CallIntake", {
  effect: Effect.gen(function* () {
    const calls = yield* CallsRepo
    const jobs = yield* JobsRepo
    const ledger = yield* LedgerRepo
    const events = yield* EventsRepo
    const blobs = yield* BlobStore
    const deals = yield* DealsRepo

    /** The call's account and deal (docs/deals.md), creating what it names for the first time. */
    const assign = (intake: Intake) =>
      Effect.gen(function* () {
        const external = intake.externalDealId === null ? undefined : yield* deals.dealByExternal(intake.clientId, intake.externalDealId)
        const knownDeal = external !== undefined && external._tag === "Some" ? external.value : null
        const own = yield* deals.ownDomains(intake.clientId)
        const closerDomain = intake.closerEmail === null ? undefined : domainOfEmail(intake.closerEmail)
        const choice = chooseAccount({
          account: intake.account,
          knownDealAccountId: knownDeal?.account_id ?? null,
          attendees: intake.attendees,
          ownDomains: closerDomain === undefined ? own : [...own, closerDomain]
        })
        const account = choice._tag === "ByDomain"
          ? yield* deals.accountOfDomain(intake.clientId, choice.domain)
          : choice._tag === "ByName"
          ? yield* deals.accountOfName(intake.clientId, choice.name)
          : null
        const accountId = choice._tag === "OfDeal" ? choice.accountId : account?.account_id ?? null
        const dealChoice = chooseDeal({
          externalDealId: intake.externalDealId,
          hasAccount: accountId !== null,
          accountDeals: accountId === null ? [] : (yield* deals.accountDeals(intake.clientId, accountId)).map((d) => ({
            dealId: d.deal_id,
            lastCallAt: d.last_call_at,
            decided: d.decided,
            createdAt: d.created_at
          })),
          meetingAt: intake.meetingAt ?? new Date().toISOString(),
          salesCycleDays: yield* deals.salesCycleDays(intake.clientId)
        })
        let dealId: string | null = null
        if (dealChoice._tag === "External") {
          if (knownDeal !== null) {
            dealId = knownDeal.deal_id
            if (knownDeal.account_id === null && accountId !== null) yield* deals.setDealAccount(dealId, accountId)
          } else {
            dealId = yield* deals.createDeal(intake.clientId, accountId, dealChoice.externalDealId, null)
          }
        } else if (dealChoice._tag === "Existing") {
          dealId = dealChoice.dealId
        } else if (dealChoice._tag === "New") {
          dealId = yield* deals.createDeal(intake.clientId, accountId, null, account?.name ?? null)
        }
        return { accountId, dealId }
      })

    /** Fails with `IntakeRefused` unless the tenant may add a call from `source` now. */
    const ensureAllowance = (clientId: ClientId, plan: typeof Plan.Type, source: CallSource) =>
      Effect.gen(function* () {
        if (source === "api") {
          const free = (yield* ledger.balance(clientId)) - (yield* ledger.reserved(clientId))
          if (free < 1) {
            return yield* new IntakeRefused({
              reason: "no_credit",
              message: "no credit left: every credit is used or held by a call in progress"
            })
          }
        }
        const included = MONTHLY_INGESTS[plan] + (yield* ledger.bonusThisMonth(clientId))
        if ((yield* ledger.ingestsThisMonth(clientId)) >= included) {
          return yield* new IntakeRefused({
            reason: "ingests_used_up",
            message: `the plan's ${included} calls of this month are used up`
          })
        }
      })

    /**
     * Admits the call: run it in the caller's transaction, after `TenantsRepo.lock`. On failure the
     * staged file stays staged (the caller discards it); on success it is under `blobKeyOf`.
     */
    const admit = (intake: Intake): Effect.Effect<{ readonly createdAt: string; readonly blobKey: string }, IntakeRefused | SqlError.SqlError> =>
      Effect.gen(function* () {
        yield* ensureAllowance(intake.clientId, intake.plan, intake.source)
        const blobKey = blobKeyOf(intake.clientId, intake.callId, intake.format)
        const { accountId, dealId } = yield* assign(intake)
        const createdAt = yield* calls.insert({
          callId: intake.callId,
          clientId: intake.clientId,
          externalCallId: intake.externalCallId,
          closerEmail: intake.closerEmail,
          format: intake.format,
          blobKey,
          size: intake.staged.size,
          sha256: intake.staged.sha256,
          source: intake.source,
          callType: intake.callType,
          repChannel: intake.repChannel,
          meetingAt: intake.meetingAt,
          attendees: intake.attendees,
          accountId,
          dealId
        })
        yield* jobs.enqueue(intake.callId)
        yield* events.record({
          clientId: intake.clientId,
          type: intake.event.type,
          platform: intake.event.platform,
          status: "ok",
          closerEmail: intake.closerEmail,
          callId: intake.callId,
          error: null
        })
        // The blob is in place before the row commits, so a committed call always has its file.
        yield* blobs.commit(intake.staged, blobKey).pipe(Effect.orDie)
        return { createdAt, blobKey }
      })

    return { admit, ensureAllowance } as const
  }),
  dependencies: [CallsRepo.Default, JobsRepo.Default, LedgerRepo.Default, EventsRepo.Default, BlobStore.Default, DealsRepo.Default]
}) {}
