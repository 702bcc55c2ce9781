/** What each plan includes per calendar month (docs/domain.md, "Tenants, users, keys, credits"). */
import { Plan } from "@callsight/api-spec"

/** The plans from the least to the most: an upgrade goes up this list. */
export const PLAN_ORDER: ReadonlyArray<Plan> = Plan.literals

/** Whether `plan` is above `current`. */
export const isAbove = (plan: Plan, current: Plan): boolean => PLAN_ORDER.indexOf(plan) > PLAN_ORDER.indexOf(current)

export const MONTHLY_INGESTS: Readonly<Record<Plan, number>> = {
  trial: 10,
  starter: 100,
  growth: 500,
  scale: 2000
}

/**
 * The list price of each plan per month, in USD: the plan cost of the ROI views (docs/portal.md,
 * "Value views and the portal page"). A trial costs nothing.
 */
export const MONTHLY_PRICE_USD: Readonly<Record<Plan, number>> = {
  trial: 0,
  starter: 99,
  growth: 299,
  scale: 899
}
