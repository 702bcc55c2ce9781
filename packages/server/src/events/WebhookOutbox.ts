/**
 * The outbox of completion webhooks, on the shared floor because the analysis worker (audio/)
 * writes to it and the webhooks feature sends from it. `enqueue` runs inside the transaction that
 * changes the call's status: the delivery rows commit with the status or not at all, so a process
 * that dies right after the commit still leaves them for a sender (webhooks/WebhookSender.ts).
 * One row per subscribed endpoint, and one for the upload's `callback_url` when it gave one.
 */
import { type CallId, type ClientId, DeliveryId, type WebhookEventType, type WebhookPayload } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../config.js"
import { newId } from "../lib/Ids.js"
import { Outbound } from "../lib/Outbound.js"
import { Secrets } from "../tenancy/Secrets.js"
import { type CallSnapshot, WebhooksRepo } from "./WebhooksRepo.js"

/** A signing secret as Standard Webhooks issue them: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * Why a webhook URL is refused, or undefined when it is fine: https anywhere, or http to this
 * machine (localhost, 127.0.0.0/8, [::1]) outside production, for development receivers.
 */
export const webhookUrlProblem = (url: string, production: boolean): string | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "must be an absolute http(s) URL"
  }
  if (parsed.username !== "" || parsed.password !== "") return "must not carry a user name or password"
  if (parsed.protocol === "https:") return undefined
  if (parsed.protocol === "http:") {
    if (!LOCAL_HOST.test(parsed.hostname)) return "must be https (http only to localhost, 127.0.0.0/8 or [::1])"
    if (production) return "must be https in production"
    return undefined
  }
  return "must be an https URL"
}

/** The message of a call's status change, as every endpoint and callback receives it. */
export const payloadOf = (
  type: WebhookEventType,
  call: CallSnapshot,
  reportUrl: string,
  error: { readonly code: string; readonly message: string } | null
): WebhookPayload => ({
  type,
  timestamp: new Date().toISOString(),
  data: {
    call_id: call.call_id,
    external_call_id: call.external_call_id,
    status: call.status === "completed" ? "completed" : "failed",
    report_url: reportUrl,
    ...(call.status === "completed" ? { overall_score: call.overall_score } : {}),
    method_version: call.method_version,
    ...(error === null ? {} : { error })
  }
})

export class WebhookOutbox extends Effect.Service<WebhookOutbox>()("WebhookOutbox", {
  effect: Effect.gen(function* () {
    const repo = yield* WebhooksRepo
    const config = yield* AppConfig
    const secrets = yield* Secrets
    const outbound = yield* Outbound

    /**
     * Why a webhook endpoint or callback URL is refused, or undefined: `webhookUrlProblem`'s rules,
     * then the outbound guard's (lib/Outbound.ts: no internal address, in production).
     */
    const urlProblem = (url: string): Effect.Effect<string | undefined> => {
      const problem = webhookUrlProblem(url, config.production)
      return problem !== undefined
        ? Effect.succeed(problem)
        : outbound.check(url).pipe(Effect.match({ onFailure: (refusal) => refusal.reason, onSuccess: () => undefined }))
    }

    /**
     * Writes the deliveries of the call's new status, in the caller's transaction: one per active
     * endpoint of the tenant that wants `type`, one to the call's callback URL. How many were written.
     */
    const enqueue = Effect.fn("WebhookOutbox.enqueue")(function* (
      callId: CallId,
      type: WebhookEventType,
      error: { readonly code: string; readonly message: string } | null
    ) {
      const found = yield* repo.callSnapshot(callId)
      if (Option.isNone(found)) return 0
      const call = found.value
      const targets = [
        ...(yield* repo.subscribed(call.client_id, type)).map((e) => ({ webhookId: e.webhook_id, url: e.url })),
        ...(call.callback_url === null ? [] : [{ webhookId: null, url: call.callback_url }])
      ]
      if (targets.length === 0) return 0
      const payload = JSON.stringify(payloadOf(type, call, `${config.publicBaseUrl}/reports/${call.call_id}/html`, error))
      for (const target of targets) {
        yield* repo.insertDelivery({
          deliveryId: DeliveryId.make(newId("msg")),
          clientId: call.client_id,
          webhookId: target.webhookId,
          url: target.url,
          eventType: type,
          callId: call.call_id,
          payload
        })
      }
      return targets.length
    })

    /**
     * The tenant's callback secret exists from here on (made now, sealed, if it had none; shown in
     * the next webhooks list). Returns whether it was made now.
     */
    const ensureCallbackSecret = Effect.fn("WebhookOutbox.ensureCallbackSecret")(function* (clientId: ClientId) {
      if (Option.isSome(yield* repo.signingSecret(clientId))) return false
      yield* repo.insertSigningSecret(clientId, secrets.encrypt(newSigningSecret()))
      return true
    })

    /** Remembers the upload's callback URL (checked by `urlProblem` first), in the upload's transaction. */
    const registerCallback = Effect.fn("WebhookOutbox.registerCallback")(function* (clientId: ClientId, callId: CallId, url: string) {
      yield* ensureCallbackSecret(clientId)
      yield* repo.saveCallback({ callId, clientId, url })
    })

    return { urlProblem, enqueue, ensureCallbackSecret, registerCallback } as const
  }),
  dependencies: [WebhooksRepo.Default, Secrets.Default, Outbound.Default]
}) {}
