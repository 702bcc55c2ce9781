/**
 * Handlers of the `companion` group (spec 4.6): the two messaging platforms' webhooks. The POSTs are
 * raw: the body is read only after the caller is checked (messenger-a's secret header) or is
 * checked itself (messenger-b's signature of the raw bytes), and parsed after that. The staff's
 * companion operations are the admin group's (`CompanionChannels`).
 */
import { CallsightApi, PayloadTooLarge, ValidationFailed } from "@callsight/api-spec"
import { HttpApiBuilder, type HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { type Body, Companion } from "./Companion.js"

/** The request's body as text; one over the server's body limit is 413, one that cannot be read 422. */
const bodyOf = (request: HttpServerRequest.HttpServerRequest): Body =>
  request.text.pipe(
    Effect.mapError((error) =>
      String(error.cause).includes("maxBytes exceeded")
        ? new PayloadTooLarge({ message: "the body is over the size limit" })
        : new ValidationFailed({ detail: [{ loc: ["body"], msg: "the body could not be read", type: "value_error" }] })
    )
  )

export const CompanionHttpLive = HttpApiBuilder.group(CallsightApi, "companion", (handlers) =>
  Effect.gen(function* () {
    const companion = yield* Companion
    return handlers
      .handleRaw("receiveMessengerAUpdate", ({ headers, request }) =>
        companion.receiveMessengerA(
          { spec: headers["x-messenger-a-bot-api-secret-token"], platform: headers["x-telegram-bot-api-secret-token"] },
          bodyOf(request)
        ))
      .handle("verifyMessengerBSubscription", ({ urlParams }) =>
        companion.verifyMessengerB(urlParams["hub.mode"], urlParams["hub.verify_token"], urlParams["hub.challenge"]))
      .handleRaw("receiveMessengerBUpdate", ({ headers, request }) =>
        companion.receiveMessengerB(headers["x-hub-signature-256"], bodyOf(request)))
  })
).pipe(Layer.provide(Companion.Default))
