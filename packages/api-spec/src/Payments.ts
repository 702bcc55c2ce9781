/**
 * Paying (issue 36; docs/portal.md "Trial and payment"), beyond the spec: a checkout at the payment
 * platform (Stripe Checkout) for a plan above the tenant's or a pack of credits, opened by the
 * upgrade links of plan-usage, and the platform's signed webhook that applies what was paid exactly
 * once (a plan changed, credits added), or takes back what was refunded.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Text } from "./Common.js"
import { Conflict, Forbidden, ServiceUnavailable, Unauthorized } from "./Errors.js"
import { SessionAuth } from "./Security.js"

/** What can be bought: a plan, or a pack of credits (`PAYMENTS_CREDIT_PACK_CREDITS`). */
export const Product = Schema.Literal("starter", "growth", "scale", "credit_pack")
export type Product = typeof Product.Type

export const CheckoutRedirect = HttpApiSchema.Empty(303).annotations({
  description: "See Other: the `Location` header is the payment platform's checkout page for this tenant and product"
})

export const PaymentWebhookHeaders = Schema.Struct({
  "stripe-signature": Schema.optional(Text)
})

export const PaymentWebhookAck = Schema.Struct({
  received: Schema.Boolean,
  duplicate: Schema.Boolean.annotations({ description: "The event was applied before (an id seen again): nothing changed" }),
  effect: Text.annotations({ description: "What the event did", examples: ["plan_changed", "credits_added", "refunded", "ignored"] })
}).annotations({ identifier: "PaymentWebhookAck" })

export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(
    HttpApiEndpoint.get("openCheckout", "/v1/client-portal/checkout/:product")
      .setPath(Schema.Struct({ product: Product }))
      .addSuccess(CheckoutRedirect)
      .addError(Forbidden)
      .addError(Conflict)
      .addError(ServiceUnavailable)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Open a checkout at the payment platform for a plan above the tenant's or a credit pack (owners and admins): 303 to its page")
      .annotate(
        OpenApi.Description,
        "409 when payments are not configured (PAYMENTS_SECRET_KEY and the product's price) or the plan is not above the tenant's; " +
          "503 when the platform does not answer (its answer is never echoed); " +
          "the platform answers the payment to `POST /v1/payments/webhook`."
      )
  )
  .add(
    HttpApiEndpoint.post("receivePaymentWebhook", "/v1/payments/webhook")
      .setHeaders(PaymentWebhookHeaders)
      .addSuccess(PaymentWebhookAck)
      .addError(Unauthorized)
      .annotate(OpenApi.Summary, "The payment platform's signed webhook (Stripe): applies a payment, a refund or a cancellation once")
      .annotate(
        OpenApi.Description,
        "Signed as Stripe signs (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256 of `t.body` under PAYMENTS_WEBHOOK_SECRET, within " +
          "5 minutes); otherwise 401 and nothing changes. Each event id is applied once: a delivery seen before answers `duplicate`."
      )
  )
  .annotate(OpenApi.Title, "Payments")
  .annotate(OpenApi.Description, "Beyond the spec: checkout for plans and credit packs, and the payment platform's webhook (issue 36).")
{}
