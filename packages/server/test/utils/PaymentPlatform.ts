/**
 * A local server that speaks the payment platform's protocol (Stripe's REST API, as documented):
 * `POST /v1/checkout/sessions` with a form-encoded body and `Authorization: Bearer sk_…` answers a
 * checkout session object with its `url`; everything it got is kept. `failing` makes it answer 500
 * with a body a test checks is never echoed. And the platform's webhook signature, written here
 * from its documentation (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`), not
 * with the service's SDK.
 */
import { Effect } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface PlatformRequest {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  readonly form: URLSearchParams
}

export interface PaymentPlatform {
  /** Set once the server listens. */
  url: string
  readonly requests: Array<PlatformRequest>
  /** While true, every request is answered 500 with `UPSTREAM_SECRET` in its body. */
  failing: boolean
}

export const UPSTREAM_SECRET = "upstream-body-sk_live_do_not_echo"

export const startPaymentPlatform = Effect.acquireRelease(
  Effect.async<{ platform: PaymentPlatform; close: () => void }>((resume) => {
    const platform: PaymentPlatform = { url: "", requests: [], failing: false }
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
        platform.requests.push({ method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization, form })
        if (platform.failing) {
          res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: UPSTREAM_SECRET, type: "api_error" } }))
          return
        }
        if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
          const id = `cs_test_${randomBytes(8).toString("hex")}`
          res.writeHead(200, { "content-type": "application/json", "request-id": `req_${id}` }).end(JSON.stringify({
            id,
            object: "checkout.session",
            mode: form.get("mode"),
            url: `https://checkout.stripe.test/c/pay/${id}`,
            client_reference_id: form.get("client_reference_id"),
            metadata: { client_id: form.get("metadata[client_id]"), product: form.get("metadata[product]") },
            payment_status: "unpaid",
            status: "open"
          }))
          return
        }
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Unrecognized request URL", type: "invalid_request_error" } }))
      })
    })
    server.listen(0, "127.0.0.1", () => {
      platform.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resume(Effect.succeed({ platform, close: () => server.close() }))
    })
  }),
  ({ close }) => Effect.sync(close)
).pipe(Effect.map(({ platform }) => platform))

/** The `Stripe-Signature` header of `payload` signed with `secret` at `timestamp` (seconds). */
export const stripeSignature = (payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex")}`

/** An event as the platform sends it. */
export const stripeEvent = (type: string, object: Record<string, unknown>) =>
  JSON.stringify({
    id: `evt_${randomBytes(10).toString("hex")}`,
    object: "event",
    api_version: "2025-01-01",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object }
  })
