/**
 * Handlers of the `payments` group (issue 36): a checkout opened for an owner or an admin (303 to
 * the payment platform's page), and the platform's signed webhook, whose raw body is verified
 * before it is read.
 */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { Payments } from "./Payments.js"

export const PaymentsHttpLive = HttpApiBuilder.group(CallsightApi, "payments", (handlers) =>
  Effect.gen(function* () {
    const payments = yield* Payments
    const manager = (yield* Callers).manager("buy a plan or credits")
    return handlers
      .handle("openCheckout", ({ path }) =>
        Effect.flatMap(manager, (c) => payments.open(c, path.product)).pipe(
          Effect.map((url) => HttpServerResponse.redirect(url, { status: 303 }))
        ))
      // Raw: the body is not parsed before its signature is checked.
      .handleRaw("receivePaymentWebhook", ({ headers, request }) =>
        Effect.flatMap(Effect.orElseSucceed(request.text, () => ""), (body) => payments.receive(body, headers["stripe-signature"])))
  })
).pipe(Layer.provide([Payments.Default, Callers.Default]))
