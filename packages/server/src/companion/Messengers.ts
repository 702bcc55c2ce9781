/**
 * What the companion needs of a messaging platform, whichever it is: whether it is configured, what
 * an inbound webhook body says (messages to answer, statuses to record, updates to acknowledge), and
 * how a text goes out to a chat. `MessengerA.ts` (Telegram Bot API) and `MessengerB.ts` (WhatsApp
 * Cloud API) speak the two platforms' protocols.
 */
import { type CompanionChannel, ValidationFailed } from "@callsight/api-spec"
import { Data, Duration, type Effect, ParseResult } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"

export type Channel = typeof CompanionChannel.Type

/** A message a chat sent: the platform's id of it (the idempotency key), the chat, its text if any. */
export interface InboundMessage {
  readonly key: string
  readonly chatId: string
  /** Null for what is not text (a photo, a sticker, a service message): recorded, not answered. */
  readonly text: string | null
}

/** A delivery status the platform reported for a message we sent. */
export interface InboundStatus {
  readonly key: string
  readonly providerMessageId: string
  readonly status: string
  readonly error: string | null
}

/** What one webhook body carries. */
export interface Inbound {
  readonly messages: ReadonlyArray<InboundMessage>
  readonly statuses: ReadonlyArray<InboundStatus>
  /** Updates acknowledged and recorded, but of a kind the companion does not answer. */
  readonly ignored: ReadonlyArray<string>
}

/** The platform did not take a message; `message` names the platform's reason, never a secret. */
export class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{ readonly message: string }> {}

export interface Messenger {
  readonly channel: Channel
  /** The variables still to set; the channel works once this is empty. */
  readonly missing: ReadonlyArray<string>
  /** Sends `text` to the chat (in several messages when it is over the platform's limit). */
  readonly send: (chatId: string, text: string) => Effect.Effect<{ readonly providerMessageId: string | null }, DeliveryFailed>
}

/** The bodies of the webhooks are small: a bigger one is refused (413) before it is parsed. */
export const MAX_UPDATE_BYTES = 1024 * 1024

/** Both platforms take at most 4096 characters a message; a longer text goes out in parts, cut between lines. */
export const MESSAGE_LIMIT = 4096

export const splitText = (text: string, limit = MESSAGE_LIMIT): ReadonlyArray<string> => {
  const parts: Array<string> = []
  let rest = text
  while (rest.length > limit) {
    const cut = rest.lastIndexOf("\n", limit)
    const at = cut > limit / 2 ? cut : limit
    parts.push(rest.slice(0, at))
    rest = rest.slice(at).replace(/^\n/, "")
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest)
  return parts
}

/** Compares a secret someone sent with the configured one in constant time (their SHA-256 digests, so lengths do not show). */
export const secretsMatch = (given: string | undefined, expected: string): boolean => {
  if (given === undefined) return false
  const a = createHash("sha256").update(given, "utf8").digest()
  const b = createHash("sha256").update(expected, "utf8").digest()
  return timingSafeEqual(a, b)
}

/** A body that is not an update of the platform: 422 with where and what. */
export const notAnUpdate = (error: ParseResult.ParseError): ValidationFailed =>
  new ValidationFailed({
    detail: ParseResult.ArrayFormatter.formatErrorSync(error).slice(0, 20).map((issue) => ({
      loc: ["body", ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg: issue.message,
      type: issue._tag === "Missing" ? "missing" : "value_error"
    }))
  })

export const notJson = new ValidationFailed({ detail: [{ loc: ["body"], msg: "the body is not valid JSON", type: "json_invalid" }] })

/** Parses a JSON body; the failure is the 422 of a body that is not JSON. */
export const parseJson = (body: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(body) as unknown }
  } catch {
    return { ok: false }
  }
}

/**
 * Provider policy of a send: retried on 429 (waiting as long as the platform asks), 5xx and the network.
 * MessengerA and MessengerB take the first back-off from `MESSENGER_RETRY_BASE_MS` (default 1 s).
 */
export const SEND_POLICY = {
  timeout: Duration.seconds(120),
  maxRetries: 3,
  retryBaseDelay: Duration.seconds(1),
  maxRetryDelay: Duration.seconds(60)
}
