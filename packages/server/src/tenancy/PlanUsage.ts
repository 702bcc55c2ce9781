/**
 * The plan-usage view (docs/domain.md `plan-usage`), one implementation for both doors: the portal's
 * `GET /plan-usage` and the admin's `GET /clients/{client_id}/plan-usage`; and the admin's
 * monthly bonus. The month is the calendar month in UTC. `ingests_used` counts the month's
 * completed analyses; calls still queued or processing are shown apart, and an upload is refused
 * (402) once used and in-progress calls together reach the plan's ingests plus the bonus.
 * Upgrade links go to the plans above the tenant's: the portal's checkout where the plan is sold here
 * (`PAYMENTS_SECRET_KEY` and `PAYMENTS_PRICE_<PLAN>`), else `UPGRADE_URL_<PLAN>`. Credits are bought on any
 * plan by the checkout of a credit pack (`credit_pack`), where it is sold here (`PAYMENTS_PRICE_CREDIT_PACK`).
 */
import { type ClientId, NotFound, type Plan, type PlanUsage as PlanUsageView, type UsageBonusRequest } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { type Actor, AuditLog } from "./AuditLog.js"
import { LedgerRepo } from "./LedgerRepo.js"
import { MONTHLY_INGESTS, PLAN_ORDER } from "./Plans.js"
import { TenantsRepo } from "./TenantsRepo.js"


export class PlanUsage extends Effect.Service<PlanUsage>()("PlanUsage", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const transactions = yield* Transactions
    const tenants = yield* TenantsRepo
    const ledger = yield* LedgerRepo
    const audit = yield* AuditLog

    /** A plan sold here (a payments key and its price): the portal's checkout for it (payments/). */
    const checkout = (p: Exclude<Plan, "trial">) =>
      Option.isSome(config.payments.secretKey) && Option.isSome(config.payments.prices[p])
        ? Option.some(`${config.publicBaseUrl}/v1/client-portal/checkout/${p}`)
        : Option.none()

    /** A credit pack sold here (a payments key and its price): the portal's checkout for it, and what it adds. */
    const creditPack = Option.isSome(config.payments.secretKey) && Option.isSome(config.payments.prices.credit_pack)
      ? { credits: config.payments.creditPackCredits, url: `${config.publicBaseUrl}/v1/client-portal/checkout/credit_pack` }
      : null

    const upgradeLinks = (plan: Plan) =>
      PLAN_ORDER.slice(PLAN_ORDER.indexOf(plan) + 1).flatMap((p) => {
        const url = p === "trial" ? Option.none() : Option.orElse(checkout(p), () => Option.map(config.upgradeUrls[p], String))
        return Option.isSome(url) ? [{ plan: p, url: url.value }] : []
      })

    const usage = Effect.fn("PlanUsage.usage")(function* (clientId: ClientId) {
      const found = yield* ledger.monthUsage(clientId)
      if (Option.isNone(found)) return yield* new NotFound({ message: `no client ${clientId}` })
      const row = found.value
      const included = MONTHLY_INGESTS[row.plan]
      const bonus = yield* ledger.bonusThisMonth(clientId)
      const allowance = included + bonus
      return {
        client_id: clientId,
        plan: row.plan,
        month: row.month,
        period_start: row.period_start,
        period_end: row.period_end,
        ingests_included: included,
        bonus_ingests: bonus,
        ingests_used: row.used,
        ingests_in_progress: row.in_progress,
        remaining: Math.max(0, allowance - row.used),
        usage_pct: allowance === 0 ? 0 : Math.round((1000 * row.used) / allowance) / 10,
        credits_balance: yield* ledger.balance(clientId),
        upgrade_links: upgradeLinks(row.plan),
        credit_pack: creditPack
      } satisfies typeof PlanUsageView.Type
    }, Effect.catchTag("SqlError", Effect.die))

    /** Staff grant extra ingests for a month (the current one by default), with its audit row. */
    const grantBonus = Effect.fn("PlanUsage.grantBonus")(function* (clientId: ClientId, req: UsageBonusRequest, actor: Actor) {
      const bonusId = newId("bon")
      const granted = yield* transactions.run(
        Effect.gen(function* () {
          if (Option.isNone(yield* tenants.lock(clientId))) return yield* new NotFound({ message: `no client ${clientId}` })
          const row = yield* ledger.insertBonus({
            bonusId,
            clientId,
            month: req.month ?? null,
            extraIngests: req.extra_ingests,
            reason: req.reason
          })
          yield* audit.record(clientId, actor, {
            action: "usage_bonus.granted",
            targetType: "tenant",
            targetId: clientId,
            metadata: { bonus_id: bonusId, month: row.month, extra_ingests: req.extra_ingests, reason: req.reason }
          })
          return row
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return {
        bonus_id: bonusId,
        client_id: clientId,
        month: granted.month,
        extra_ingests: req.extra_ingests,
        reason: req.reason,
        granted_at: granted.granted_at,
        month_bonus_total: granted.month_total,
        plan_usage: yield* usage(clientId)
      }
    })

    return { usage, grantBonus } as const
  }),
  dependencies: [LedgerRepo.Default, TenantsRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
