/**
 * The plan-usage view (DOMAIN.md `plan-usage`), one implementation for both doors: the portal's
 * `GET /plan-usage` and the admin's `GET /clients/{client_id}/plan-usage`; and the admin's
 * monthly bonus. The month is the calendar month in UTC. `ingests_used` counts the month's
 * completed analyses; calls still queued or processing are shown apart, and an upload is refused
 * (402) once used and in-progress calls together reach the plan's ingests plus the bonus.
 * Upgrade links go to the plans above the tenant's, from `UPGRADE_URL_<PLAN>`.
 */
import { NotFound, type Plan, type PlanUsage as PlanUsageView, type UsageBonusRequest } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { AppConfig } from "../config.js"
import { newId } from "../lib/Ids.js"
import { type Actor, AuditLog } from "../portal/AuditLog.js"
import { LedgerRepo } from "./LedgerRepo.js"
import { MONTHLY_INGESTS } from "./Plans.js"

const PLAN_ORDER: ReadonlyArray<Plan> = ["trial", "starter", "growth", "scale"]

export class PlanUsage extends Effect.Service<PlanUsage>()("PlanUsage", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const ledger = yield* LedgerRepo
    const audit = yield* AuditLog

    const upgradeLinks = (plan: Plan) =>
      PLAN_ORDER.slice(PLAN_ORDER.indexOf(plan) + 1).flatMap((p) => {
        const url = p === "trial" ? Option.none() : config.upgradeUrls[p]
        return Option.isSome(url) ? [{ plan: p, url: url.value.toString() }] : []
      })

    const usage = Effect.fn("PlanUsage.usage")(function* (clientId: string) {
      const [row] = yield* sql<{
        plan: Plan
        month: string
        period_start: Date
        period_end: Date
        used: number
        in_progress: number
      }>`
        SELECT t.plan, to_char(m.start, 'YYYY-MM') AS month,
               m.start AT TIME ZONE 'UTC' AS period_start, (m.start + interval '1 month') AT TIME ZONE 'UTC' AS period_end,
               (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status = 'completed'
                  AND c.created_at >= m.start AT TIME ZONE 'UTC') AS used,
               (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status IN ('queued', 'processing')
                  AND c.created_at >= m.start AT TIME ZONE 'UTC') AS in_progress
        FROM tenants t, (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AS start) m
        WHERE t.client_id = ${clientId}`
      if (row === undefined) return yield* new NotFound({ message: `no client ${clientId}` })
      const included = MONTHLY_INGESTS[row.plan]
      const bonus = yield* ledger.bonusThisMonth(clientId)
      const allowance = included + bonus
      return {
        client_id: clientId,
        plan: row.plan,
        month: row.month,
        period_start: row.period_start.toISOString(),
        period_end: row.period_end.toISOString(),
        ingests_included: included,
        bonus_ingests: bonus,
        ingests_used: row.used,
        ingests_in_progress: row.in_progress,
        remaining: Math.max(0, allowance - row.used),
        usage_pct: allowance === 0 ? 0 : Math.round((1000 * row.used) / allowance) / 10,
        credits_balance: yield* ledger.balance(clientId),
        upgrade_links: upgradeLinks(row.plan)
      } satisfies typeof PlanUsageView.Type
    }, Effect.catchTag("SqlError", Effect.die))

    /** Staff grant extra ingests for a month (the current one by default), with its audit row. */
    const grantBonus = Effect.fn("PlanUsage.grantBonus")(function* (clientId: string, req: UsageBonusRequest, actor: Actor) {
      const granted = yield* sql.withTransaction(
        Effect.gen(function* () {
          const [tenant] = yield* sql`SELECT 1 FROM tenants WHERE client_id = ${clientId} FOR UPDATE`
          if (tenant === undefined) return yield* new NotFound({ message: `no client ${clientId}` })
          const bonusId = newId("bon")
          const [row] = yield* sql<{ month: string; granted_at: Date; month_total: number }>`
            WITH inserted AS (
              INSERT INTO usage_bonuses (bonus_id, client_id, month, extra_ingests, reason)
              VALUES (${bonusId}, ${clientId}, COALESCE(${req.month ?? null}, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')),
                      ${req.extra_ingests}, ${req.reason})
              RETURNING month, granted_at, extra_ingests)
            SELECT i.month, i.granted_at,
                   i.extra_ingests + (SELECT COALESCE(SUM(extra_ingests), 0)::int FROM usage_bonuses b
                                      WHERE b.client_id = ${clientId} AND b.month = i.month) AS month_total
            FROM inserted i`
          yield* audit.record(clientId, actor, {
            action: "usage_bonus.granted",
            targetType: "tenant",
            targetId: clientId,
            metadata: { bonus_id: bonusId, month: row!.month, extra_ingests: req.extra_ingests, reason: req.reason }
          })
          return { bonusId, ...row! }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return {
        bonus_id: granted.bonusId,
        client_id: clientId,
        month: granted.month,
        extra_ingests: req.extra_ingests,
        reason: req.reason,
        granted_at: granted.granted_at.toISOString(),
        month_bonus_total: granted.month_total,
        plan_usage: yield* usage(clientId)
      }
    })

    return { usage, grantBonus } as const
  }),
  dependencies: [LedgerRepo.Default, AuditLog.Default]
}) {}
