/**
 * The plan-usage view (docs/domain.md `plan-usage`). One schema for both doors that show it:
 * the portal's `GET /v1/client-portal/plan-usage` and the admin's
 * `GET /v1/internal/admin/clients/{client_id}/plan-usage`.
 */
import { Schema } from "effect"
import { ClientId, Plan, Timestamp } from "./Common.js"

/** A calendar month on the wire: `YYYY-MM`. */
export const YearMonth = Schema.String.pipe(
  Schema.pattern(/^\d{4}-(0[1-9]|1[0-2])$/, { message: () => "must be a month as YYYY-MM" })
).annotations({ description: "A calendar month, `YYYY-MM`", examples: ["2026-11"] })

export const UpgradeLink = Schema.Struct({
  plan: Plan,
  url: Schema.String
}).annotations({ identifier: "UpgradeLink" })

/** Buying credits: the checkout of a credit pack, and how many credits a pack adds. */
export const CreditPackLink = Schema.Struct({
  credits: Schema.Number.annotations({ description: "Credits a pack adds to the balance once paid (PAYMENTS_CREDIT_PACK_CREDITS)" }),
  url: Schema.String.annotations({
    description: "The portal's checkout of a credit pack (`GET /v1/client-portal/checkout/credit_pack`, owners and admins): a link the browser follows to the payment platform"
  })
}).annotations({ identifier: "CreditPackLink" })

export const PlanUsage = Schema.Struct({
  client_id: ClientId,
  plan: Plan,
  month: YearMonth,
  period_start: Timestamp.annotations({ description: "First instant of the calendar month (UTC)" }),
  period_end: Timestamp.annotations({ description: "First instant of the next calendar month (UTC), exclusive" }),
  ingests_included: Schema.Number.annotations({ description: "Analysed calls the plan includes per calendar month" }),
  bonus_ingests: Schema.Number.annotations({ description: "Extra ingests granted by an admin for this month" }),
  ingests_used: Schema.Number.annotations({ description: "Analyses completed this month" }),
  ingests_in_progress: Schema.Number.annotations({ description: "Calls queued or processing, not yet counted as used" }),
  remaining: Schema.Number.annotations({ description: "included + bonus − used, never below 0" }),
  usage_pct: Schema.Number.annotations({ description: "used ÷ (included + bonus) × 100" }),
  credits_balance: Schema.Number.annotations({ description: "Prepaid credits for audio analysis (the ledger's sum)" }),
  upgrade_links: Schema.Array(UpgradeLink).annotations({ description: "From configuration; empty when none is configured" }),
  credit_pack: Schema.NullOr(CreditPackLink).annotations({
    description:
      "Where to buy credits, on any plan: set when the payment platform sells credit packs here (PAYMENTS_SECRET_KEY and " +
      "PAYMENTS_PRICE_CREDIT_PACK), null otherwise"
  })
}).annotations({ identifier: "PlanUsage" })
export type PlanUsage = typeof PlanUsage.Type
