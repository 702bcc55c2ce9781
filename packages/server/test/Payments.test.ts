/**
 * Trial and payment (issue 36) against a local server that speaks the payment platform's protocol
 * (Stripe's REST API) and webhooks signed as its documentation says: the upgrade links open a
 * checkout for the tenant; a signed `checkout.session.completed` changes the plan or adds a credit
 * pack exactly once, even delivered twice at once; a wrong signature or an old timestamp changes
 * nothing; a refund takes the credits back; a cancelled subscription ends the plan; the platform's
 * failure is a 503 that echoes nothing of its answer.
 */
import { describe, expect, layer } from "@effect/vitest"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { call, memberSession, newTenant } from "./utils/PortalRequests.js"
import { startPaymentPlatform, stripeEvent, stripeSignature, UPSTREAM_SECRET } from "./utils/PaymentPlatform.js"
import { Smtp, serverWithSmtp } from "./utils/SmtpServerLayer.js"
import type { PaymentPlatform } from "./utils/PaymentPlatform.js"

const SECRET_KEY = "sk_test_callsight_local"
const WEBHOOK_SECRET = "whsec_test_callsight_local"

class Platform extends Context.Tag("Platform")<Platform, PaymentPlatform>() {}

/** Every log line of the server with the payment platform. */
const logs: Array<string> = []

const withPlatform = Layer.unwrapScoped(Effect.gen(function* () {
  const platform = yield* startPaymentPlatform
  return Layer.merge(
    serverWithSmtp({
      payments: {
        secretKey: Option.some(Redacted.make(SECRET_KEY)),
        webhookSecret: Option.some(Redacted.make(WEBHOOK_SECRET)),
        apiUrl: new URL(platform.url),
        prices: {
          starter: Option.some("price_starter"),
          growth: Option.some("price_growth"),
          scale: Option.none(),
          credit_pack: Option.some("price_pack")
        },
        creditPackCredits: 50
      }
    }, { logs }),
    Layer.succeed(Platform, platform)
  )
}))

/** Posts a raw body to the webhook, signed as given. */
const deliver = (payload: string, signature: string | undefined) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.post("/v1/payments/webhook").pipe(HttpClientRequest.bodyText(payload, "application/json"))
    if (signature !== undefined) request = HttpClientRequest.setHeader(request, "stripe-signature", signature)
    const response = yield* client.execute(request)
    return { status: response.status, body: JSON.parse(yield* response.text) as any }
  }).pipe(Effect.orDie)

const signed = (payload: string) => deliver(payload, stripeSignature(payload, WEBHOOK_SECRET))

const ledgerOf = (clientId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ delta: number; reason: string }>`SELECT delta, reason FROM credit_ledger WHERE client_id = ${clientId} ORDER BY entry_id`)
const planOf = (clientId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ plan: string }>`SELECT plan FROM tenants WHERE client_id = ${clientId}`).pipe(Effect.map((r) => r[0]?.plan))

const completed = (clientId: string, product: string, extra: Record<string, unknown> = {}) =>
  stripeEvent("checkout.session.completed", {
    id: `cs_test_${Math.random().toString(36).slice(2)}`,
    object: "checkout.session",
    payment_status: "paid",
    status: "complete",
    metadata: { client_id: clientId, product },
    payment_intent: null,
    subscription: null,
    ...extra
  })

describe("payments", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("not configured", (it) => {
    it.effect("a checkout is 409 and the webhook 401; the upgrade links are UPGRADE_URL_* or none", () =>
      Effect.gen(function* () {
        const { session } = yield* newTenant()
        const checkout = yield* call("GET", "/v1/client-portal/checkout/starter", { session })
        expect(checkout.status).toBe(409)
        const payload = stripeEvent("checkout.session.completed", {})
        expect((yield* signed(payload)).status).toBe(401)
        const usage = yield* call("GET", "/v1/client-portal/plan-usage", { session })
        expect(usage.body.upgrade_links.every((l: any) => !l.url.includes("/checkout/"))).toBe(true)
        expect(usage.body.credit_pack).toBeNull()
      }))
  })

  layer(withPlatform, { excludeTestServices: true })("with the payment platform", (it) => {
    it.effect("the upgrade links open a checkout at the platform for the tenant (303); members may not; a plan not above is 409", () =>
      Effect.gen(function* () {
        const platform = yield* Platform
        const { clientId, session } = yield* newTenant("Paying Co")
        const usage = yield* call("GET", "/v1/client-portal/plan-usage", { session })
        // starter and growth are sold here; scale has no price, so it keeps its UPGRADE_URL (none in tests)
        expect(usage.body.upgrade_links).toEqual([
          { plan: "starter", url: "http://localhost:8080/v1/client-portal/checkout/starter" },
          { plan: "growth", url: "http://localhost:8080/v1/client-portal/checkout/growth" }
        ])
        // credits are bought by the checkout of a pack, which adds PAYMENTS_CREDIT_PACK_CREDITS
        expect(usage.body.credit_pack).toEqual({ credits: 50, url: "http://localhost:8080/v1/client-portal/checkout/credit_pack" })
        const opened = yield* call("GET", "/v1/client-portal/checkout/starter", { session })
        expect(opened.status).toBe(303)
        expect(opened.headers.location).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/)
        const [sent] = platform.requests.slice(-1)
        expect(sent).toMatchObject({ method: "POST", path: "/v1/checkout/sessions", authorization: `Bearer ${SECRET_KEY}` })
        expect(Object.fromEntries(sent!.form)).toMatchObject({
          mode: "subscription",
          "line_items[0][price]": "price_starter",
          "line_items[0][quantity]": "1",
          client_reference_id: clientId,
          "metadata[client_id]": clientId,
          "metadata[product]": "starter",
          "subscription_data[metadata][client_id]": clientId
        })
        // the credit pack's link is that operation: followed, it opens the pack's checkout
        const pack = yield* call("GET", new URL(usage.body.credit_pack.url).pathname, { session })
        expect(pack.status).toBe(303)
        expect(platform.requests.at(-1)!.form.get("line_items[0][price]")).toBe("price_pack")
        expect(platform.requests.at(-1)!.form.get("mode")).toBe("payment")
        expect((yield* call("GET", "/v1/client-portal/checkout/scale", { session })).status).toBe(409)
        expect((yield* call("GET", "/v1/client-portal/checkout/trial", { session })).status).toBe(422)
        const member = yield* memberSession(yield* Smtp, clientId, `rep.${Date.now()}@paying.test`)
        expect((yield* call("GET", "/v1/client-portal/checkout/starter", { session: member })).status).toBe(403)
        expect((yield* call("GET", "/v1/client-portal/checkout/starter")).status).toBe(401)

        // the platform failing: 503 in our words, nothing of its answer
        platform.failing = true
        const failed = yield* call("GET", "/v1/client-portal/checkout/growth", { session })
        platform.failing = false
        expect(failed.status).toBe(503)
        expect(JSON.stringify(failed.body)).not.toContain(UPSTREAM_SECRET)
        // nor in a log line, and the secret key in none either
        expect(logs.some((l) => l.includes("the checkout session could not be created"))).toBe(true)
        expect(logs.filter((l) => l.includes(UPSTREAM_SECRET) || l.includes(SECRET_KEY))).toEqual([])
      }), 60_000)

    it.effect("a paid checkout changes the plan once, even delivered twice at once; a wrong or old signature changes nothing", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const payload = completed(clientId, "starter", { subscription: "sub_123" })
        // a wrong secret, an old timestamp, no header: 401, nothing changed
        expect((yield* deliver(payload, stripeSignature(payload, "whsec_wrong"))).status).toBe(401)
        expect((yield* deliver(payload, stripeSignature(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600))).status).toBe(401)
        expect((yield* deliver(payload, undefined)).status).toBe(401)
        expect((yield* deliver(payload.replace("starter", "scale"), stripeSignature(payload, WEBHOOK_SECRET))).status).toBe(401)
        expect(yield* planOf(clientId)).toBe("trial")
        expect(yield* ledgerOf(clientId)).toEqual([{ delta: 5, reason: "trial" }])

        const [a, b] = yield* Effect.all([signed(payload), signed(payload)], { concurrency: 2 })
        expect([a.status, b.status]).toEqual([200, 200])
        expect([a.body.duplicate, b.body.duplicate].sort()).toEqual([false, true])
        expect([a.body.effect, b.body.effect].sort()).toEqual(["none", "plan_changed"])
        expect((yield* signed(payload)).body).toEqual({ received: true, duplicate: true, effect: "none" })
        expect(yield* planOf(clientId)).toBe("starter")
        expect(yield* ledgerOf(clientId)).toEqual([{ delta: 5, reason: "trial" }, { delta: 100, reason: "plan_payment" }])
        const usage = yield* call("GET", "/v1/client-portal/plan-usage", { session })
        // on any plan credits are still bought by the pack
        expect(usage.body).toMatchObject({ plan: "starter", ingests_included: 100, credits_balance: 105, credit_pack: { credits: 50 } })
        expect((yield* call("GET", "/v1/client-portal/checkout/starter", { session })).status).toBe(409)

        const sql = yield* SqlClient.SqlClient
        const audit = yield* sql<{ action: string; actor: string; actor_type: string; metadata: any }>`
          SELECT action, actor, actor_type, metadata FROM audit_logs WHERE client_id = ${clientId} AND action LIKE 'payment.%'`
        expect(audit).toHaveLength(1)
        expect(audit[0]).toMatchObject({ action: "payment.received", actor: "payments:stripe", actor_type: "system", metadata: { product: "starter", credits: 100, plan_from: "trial", plan_to: "starter" } })

        // the subscription ends: back to trial, the credits stay
        const ended = yield* signed(stripeEvent("customer.subscription.deleted", { id: "sub_123", object: "subscription", status: "canceled" }))
        expect(ended.body).toMatchObject({ duplicate: false, effect: "plan_ended" })
        expect(yield* planOf(clientId)).toBe("trial")
        expect((yield* ledgerOf(clientId)).reduce((n, e) => n + e.delta, 0)).toBe(105)
      }), 60_000)

    it.effect("a credit pack adds its credits; its refund takes back what is left; a failed invoice is recorded; unknown events are ignored", () =>
      Effect.gen(function* () {
        const { clientId } = yield* newTenant()
        const payload = completed(clientId, "credit_pack", { payment_intent: "pi_pack_1" })
        expect((yield* signed(payload)).body).toMatchObject({ duplicate: false, effect: "credits_added" })
        expect((yield* ledgerOf(clientId)).map((e) => [e.delta, e.reason])).toEqual([[5, "trial"], [50, "credit_pack"]])
        // 20 of them used
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO credit_ledger (client_id, delta, reason) VALUES (${clientId}, -40, 'test: used')`
        const refund = yield* signed(stripeEvent("charge.refunded", { id: "ch_1", object: "charge", payment_intent: "pi_pack_1", refunded: true }))
        expect(refund.body).toMatchObject({ effect: "refunded" })
        expect((yield* ledgerOf(clientId)).at(-1)).toEqual({ delta: -15, reason: "refund" })
        expect((yield* ledgerOf(clientId)).reduce((n, e) => n + e.delta, 0)).toBe(0)
        // the same refund again (another event id) takes nothing more
        expect((yield* signed(stripeEvent("charge.refunded", { id: "ch_1", object: "charge", payment_intent: "pi_pack_1" }))).body.effect).toBe("ignored")
        expect((yield* signed(stripeEvent("invoice.paid", { id: "in_1", object: "invoice" }))).body).toMatchObject({ effect: "ignored" })
        // a checkout of no known tenant changes nothing
        expect((yield* signed(completed("cli_unknown", "credit_pack"))).body.effect).toBe("ignored")
        // a refunded plan returns to the plan before it, taking back its credits
        const plan = yield* newTenant()
        expect((yield* signed(completed(plan.clientId, "growth", { payment_intent: "pi_plan_1" }))).body.effect).toBe("plan_changed")
        expect(yield* planOf(plan.clientId)).toBe("growth")
        expect((yield* signed(stripeEvent("charge.refunded", { id: "ch_2", object: "charge", payment_intent: "pi_plan_1" }))).body.effect).toBe("refunded")
        expect(yield* planOf(plan.clientId)).toBe("trial")
        expect((yield* ledgerOf(plan.clientId)).map((e) => [e.delta, e.reason])).toEqual([[5, "trial"], [500, "plan_payment"], [-500, "refund"]])
      }), 60_000)
  })
})
