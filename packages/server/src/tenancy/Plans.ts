/** What each plan includes per calendar month (DOMAIN.md, "Tenants, users, keys, credits"). */
import type { Plan } from "@callsight/api-spec"

export const MONTHLY_INGESTS: Readonly<Record<Plan, number>> = {
  trial: 10,
  starter: 100,
  growth: 500,
  scale: 2000
}
