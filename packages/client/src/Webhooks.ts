/**
 * Verifying Callsight's webhooks in the receiver, as the Standard Webhooks specification says:
 * the signature `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under the
 * endpoint's secret (`whsec_<base64>`), and a timestamp within 5 minutes of now (replays of old
 * messages are refused). Web Crypto only, so it runs in Node ≥ 20, Deno, Bun and edge runtimes.
 *
 *     const event = await verifyWebhook(rawBody, request.headers, process.env.CALLSIGHT_WEBHOOK_SECRET)
 *     if (event.type === "analysis.completed") ...
 *
 * Pass the body exactly as received (the raw text or bytes, not re-serialized JSON). Deduplicate
 * on `webhook-id`: a delivery keeps its id across retries.
 */
import type { WebhookPayload } from "@callsight/api-spec"

export type { WebhookEventType, WebhookPayload } from "@callsight/api-spec"

/** How far a message's timestamp may be from now, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60

/** The message is not a valid Callsight webhook: missing headers, bad signature, too old or too new. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "WebhookVerificationError"
  }
}

/** The headers of the request: a fetch `Headers`, or Node's `IncomingHttpHeaders`-like record. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

export interface VerifyWebhookOptions {
  /** Default `WEBHOOK_TOLERANCE_SECONDS`. */
  readonly toleranceSeconds?: number
  /** The current time (tests). */
  readonly now?: Date
}

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return typeof value === "string" ? value : value?.[0]
}

const fromBase64 = (text: string): Uint8Array => {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

const secretBytes = (secret: string): Uint8Array => {
  const body = secret.trim().replace(/^whsec_/, "")
  let bytes: Uint8Array
  try {
    bytes = fromBase64(body)
  } catch {
    throw new WebhookVerificationError("the secret is not whsec_<base64>")
  }
  if (bytes.length === 0) throw new WebhookVerificationError("the secret is empty")
  return bytes
}

/**
 * Checks a webhook's signature and timestamp and answers its payload; rejects with
 * `WebhookVerificationError` when the message is not one Callsight signed with `secret` in the
 * last 5 minutes.
 */
export const verifyWebhook = async (
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {}
): Promise<WebhookPayload> => {
  const id = header(headers, "webhook-id")
  const timestamp = header(headers, "webhook-timestamp")
  const signatures = header(headers, "webhook-signature")
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a number of seconds")
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS
  const sent = Number(timestamp)
  if (now - sent > tolerance) throw new WebhookVerificationError("the message is too old")
  if (sent - now > tolerance) throw new WebhookVerificationError("the message is too new")

  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload)
  const key = await crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"])
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`)
  for (const versioned of signatures.split(" ")) {
    const [version, signature] = versioned.split(",")
    if (version !== "v1" || signature === undefined) continue
    let bytes: Uint8Array
    try {
      bytes = fromBase64(signature)
    } catch {
      continue
    }
    // Web Crypto's verify compares in constant time.
    if (await crypto.subtle.verify("HMAC", key, bytes, signed)) return JSON.parse(body) as WebhookPayload
  }
  throw new WebhookVerificationError("no matching signature")
}
