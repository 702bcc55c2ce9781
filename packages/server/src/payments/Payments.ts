/**
 * Paying (issue 36; docs/portal.md "Trial and payment"): a checkout session at the payment platform
 * (Stripe Checkout, through its own SDK, `PAYMENTS_*`) for a plan above the tenant's or a credit
 * pack, and the platform's signed webhook, verified on the raw body with the SDK (HMAC-SHA256 of
 * `t.body`, 5 minutes of tolerance) and applied once per event id in one transaction:
 *
 * - `checkout.session.completed` (paid): a plan is set and its monthly analyses are granted as
 *   credits (ledger `plan_payment`); a credit pack adds `PAYMENTS_CREDIT_PACK_CREDITS` (ledger
 *   `credit_pack`). Each with an audit row `payment.received`.
 * - `charge.refunded`: the payment's credits are taken back, as many as are left (ledger `refund`),
 *   and a refunded plan returns to the plan before it; audit `payment.refunded`.
 * - `invoice.payment_failed`: recorded (audit `payment.failed`), nothing else: the platform retries,
 *   and a subscription it gives up on arrives as `customer.subscription.deleted`, which returns the
 *   tenant to `trial` (audit `plan.ended`; credits already granted stay).
 * - anything else, or an event of no known tenant: recorded as ignored.
 *
 * The platform's answers are never echoed: a failure to open a checkout is 503 with our words.
 */
import { type ClientId, Conflict, Product, ServiceUnavailable, Unauthorized } from "@callsight/api-spec"
import { Effect, Option, Redacted, Schema } from "effect"
import Stripe from "stripe"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { isAbove, MONTHLY_INGESTS } from "../tenancy/Plans.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { PaymentsRepo } from "./PaymentsRepo.js"

const isPlan = (p: Product): p is Exclude<Product, "credit_pack"> => p !== "credit_pack"
/** How far apart the signature's time and ours may be. */
const TOLERANCE_S = 300
const PLATFORM: Actor = { id: "payments:stripe", type: "system", ip: null }

/** A Stripe client on the configured API URL (the platform's own, or a local one speaking its protocol). */
const stripeOf = (secretKey: string, apiUrl: URL) =>
  new Stripe(secretKey, {
    host: apiUrl.hostname,
    port: apiUrl.port === "" ? (apiUrl.protocol === "https:" ? 443 : 80) : Number(apiUrl.port),
    protocol: apiUrl.protocol === "https:" ? "https" : "http",
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false
  })

export class Payments extends Effect.Service<Payments>()("Payments", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const transactions = yield* Transactions
    const repo = yield* PaymentsRepo
    const tenants = yield* TenantsRepo
    const ledger = yield* LedgerRepo
    const audit = yield* AuditLog
    const { apiUrl, creditPackCredits, prices, secretKey, webhookSecret } = config.payments
    const stripe = Option.map(secretKey, (key) => stripeOf(Redacted.value(key), apiUrl))

    /** Whether the product can be bought here: a secret key and its price. */
    const priceOf = (product: Product) => Option.flatMap(stripe, () => prices[product])

    const open = Effect.fn("Payments.open")(function* (caller: Caller, product: Product) {
      const price = priceOf(product)
      if (Option.isNone(stripe) || Option.isNone(price)) {
        return yield* new Conflict({ message: `${product} cannot be bought here: payments are not configured for it` })
      }
      if (isPlan(product)) {
        const { plan } = yield* tenants.get(caller.clientId)
        if (!isAbove(product, plan)) return yield* new Conflict({ message: `the plan ${product} is not above the account's plan (${plan})` })
      }
      const metadata = { client_id: caller.clientId, product }
      const session = yield* Effect.tryPromise(() =>
        stripe.value.checkout.sessions.create({
          mode: isPlan(product) ? "subscription" : "payment",
          line_items: [{ price: price.value, quantity: 1 }],
          client_reference_id: caller.clientId,
          customer_email: caller.user.email,
          metadata,
          ...(isPlan(product) ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
          success_url: `${config.publicBaseUrl}/app/value?checkout=paid`,
          cancel_url: `${config.publicBaseUrl}/app/value?checkout=cancelled`
        })
      ).pipe(
        // the platform's own words are not logged (they may quote what was sent): its error's type and status are
        Effect.tapError((error) => {
          const cause = error.cause as { type?: unknown; statusCode?: unknown } | undefined
          return Effect.logWarning("payments: the checkout session could not be created").pipe(
            Effect.annotateLogs({ error_type: String(cause?.type ?? "unknown"), status: String(cause?.statusCode ?? "none") })
          )
        }),
        Effect.mapError(() => new ServiceUnavailable({ message: "the payment platform did not open a checkout; try again in a minute" }))
      )
      if (session.url === null) {
        return yield* new ServiceUnavailable({ message: "the payment platform did not open a checkout; try again in a minute" })
      }
      return session.url
    })

    /** What a paid checkout session gives, applied in the caller's transaction. */
    const paid = (event: Stripe.Event, session: Stripe.Checkout.Session) =>
      Effect.gen(function* () {
        const clientId = session.metadata?.client_id as ClientId | undefined
        const product = session.metadata?.product
        if (clientId === undefined || !Schema.is(Product)(product)) return { clientId: null, effect: "ignored" }
        if (session.payment_status === "unpaid") return { clientId, effect: "ignored" }
        const tenant = yield* tenants.lock(clientId)
        if (Option.isNone(tenant)) return { clientId: null, effect: "ignored" }
        const credits = isPlan(product) ? MONTHLY_INGESTS[product] : creditPackCredits
        if (isPlan(product)) yield* repo.setPlan({ clientId, plan: product })
        yield* ledger.add({ clientId, delta: credits, reason: isPlan(product) ? "plan_payment" : "credit_pack" })
        const idOf = (x: string | { id: string } | null) => (x === null ? null : typeof x === "string" ? x : x.id)
        yield* repo.insertPayment({
          sessionId: session.id,
          clientId,
          product,
          paymentIntent: idOf(session.payment_intent),
          subscription: idOf(session.subscription),
          credits,
          previousPlan: tenant.value.plan
        })
        yield* audit.record(clientId, PLATFORM, {
          action: "payment.received",
          targetType: "tenant",
          targetId: clientId,
          metadata: { event_id: event.id, session_id: session.id, product, credits, plan_from: tenant.value.plan, plan_to: isPlan(product) ? product : tenant.value.plan }
        })
        return { clientId, effect: isPlan(product) ? "plan_changed" : "credits_added" }
      })

    const refunded = (event: Stripe.Event, charge: Stripe.Charge) =>
      Effect.gen(function* () {
        const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id
        if (intent === undefined) return { clientId: null, effect: "ignored" }
        const payment = yield* repo.byPaymentIntent(intent)
        if (Option.isNone(payment) || payment.value.refunded_at !== null) return { clientId: null, effect: "ignored" }
        const p = payment.value
        const tenant = yield* tenants.lock(p.client_id)
        const taken = Math.min(p.credits, yield* ledger.balance(p.client_id))
        if (taken > 0) yield* ledger.add({ clientId: p.client_id, delta: -taken, reason: "refund" })
        // a refunded plan returns to the one before it, unless the tenant has moved on to another since
        const revert = isPlan(p.product) && Option.isSome(tenant) && tenant.value.plan === p.product
        if (revert) yield* repo.setPlan({ clientId: p.client_id, plan: p.previous_plan })
        yield* repo.markRefunded(p.session_id)
        yield* audit.record(p.client_id, PLATFORM, {
          action: "payment.refunded",
          targetType: "tenant",
          targetId: p.client_id,
          metadata: { event_id: event.id, session_id: p.session_id, product: p.product, credits_taken: taken, plan_to: revert ? p.previous_plan : null }
        })
        return { clientId: p.client_id, effect: "refunded" }
      })

    /** A subscription's event: its failed invoice recorded, or its end returning the tenant to trial. */
    const subscriptionEvent = (event: Stripe.Event, subscription: string | null, ended: boolean) =>
      Effect.gen(function* () {
        if (subscription === null) return { clientId: null, effect: "ignored" }
        const payment = yield* repo.bySubscription(subscription)
        if (Option.isNone(payment)) return { clientId: null, effect: "ignored" }
        const p = payment.value
        if (ended) {
          const tenant = yield* tenants.lock(p.client_id)
          if (Option.isSome(tenant) && tenant.value.plan === p.product) yield* repo.setPlan({ clientId: p.client_id, plan: "trial" })
        }
        yield* audit.record(p.client_id, PLATFORM, {
          action: ended ? "plan.ended" : "payment.failed",
          targetType: "tenant",
          targetId: p.client_id,
          metadata: { event_id: event.id, subscription, product: p.product }
        })
        return { clientId: p.client_id, effect: ended ? "plan_ended" : "payment_failed" }
      })

    const apply = (event: Stripe.Event) => {
      switch (event.type) {
        case "checkout.session.completed":
        case "checkout.session.async_payment_succeeded":
          return paid(event, event.data.object)
        case "charge.refunded":
          return refunded(event, event.data.object)
        case "invoice.payment_failed": {
          const invoice = event.data.object as Stripe.Invoice & { subscription?: string | { id: string } | null }
          const sub = invoice.subscription ?? invoice.parent?.subscription_details?.subscription ?? null
          return subscriptionEvent(event, sub === null ? null : typeof sub === "string" ? sub : sub.id, false)
        }
        case "customer.subscription.deleted":
          return subscriptionEvent(event, event.data.object.id, true)
        default:
          return Effect.succeed({ clientId: null, effect: "ignored" })
      }
    }

    const receive = Effect.fn("Payments.receive")(function* (body: string, signature: string | undefined) {
      if (Option.isNone(webhookSecret)) {
        return yield* new Unauthorized({ message: "payment webhooks are not accepted: PAYMENTS_WEBHOOK_SECRET is not set" })
      }
      const event = yield* Effect.try({
        // verifying needs the webhook secret only: the SDK's own verifier, no API client
        try: () => Stripe.webhooks.constructEvent(body, signature ?? "", Redacted.value(webhookSecret.value), TOLERANCE_S),
        catch: () => new Unauthorized({ message: "the payment webhook's signature is missing, stale or wrong" })
      })
      return yield* transactions.run(
        Effect.gen(function* () {
          const first = yield* repo.claim({ eventId: event.id, type: event.type })
          if (Option.isNone(first)) return { received: true, duplicate: true, effect: "none" }
          const { clientId, effect } = yield* apply(event)
          yield* repo.settle({ eventId: event.id, clientId, effect })
          return { received: true, duplicate: false, effect }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    return { open, receive } as const
  }),
  dependencies: [PaymentsRepo.Default, TenantsRepo.Default, LedgerRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
