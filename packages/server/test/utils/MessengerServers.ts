/**
 * Local servers speaking the two messaging platforms' documented protocols, written from their
 * documentation, not from the service's code, so the tests check that the two agree:
 *
 * - **messenger-a**, the Telegram Bot API (https://core.telegram.org/bots/api): `POST
 *   /bot<token>/sendMessage` with JSON `{chat_id, text}` answers `{ok: true, result: Message}`;
 *   a wrong token is 401 `{ok: false, error_code: 401, description: "Unauthorized"}`, a chat that
 *   blocked the bot 403, a text over 4096 characters 400, and flood control 429 with
 *   `parameters.retry_after` (seconds). The platform's updates are built here (`update`) and posted
 *   to the service with the secret-token header, as `setWebhook`'s `secret_token` makes it do.
 * - **messenger-b**, the WhatsApp Cloud API (Graph API): `POST /v21.0/<phone_number_id>/messages`
 *   with `Authorization: Bearer <token>` and `{messaging_product: "whatsapp", to, type: "text",
 *   text: {body}}` answers `{messaging_product, contacts: [{input, wa_id}], messages: [{id:
 *   "wamid…"}]}`; a wrong token is 401 with an `OAuthException` (code 190). Notifications are built
 *   here (`notification`) and signed `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body
 *   under the app secret>`.
 */
import { Effect, type Scope } from "effect"
import { createHmac, randomBytes, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface SentMessage {
  readonly chatId: string
  readonly text: string
  /** When the platform received it (ms since the epoch). */
  readonly at: number
}

export interface PlatformRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: unknown
  readonly status: number
  readonly at: number
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** A request as a platform server sees it: its path, its body (JSON when it parses), and an answer that records it. */
const received = async (req: IncomingMessage, res: ServerResponse, requests: Array<PlatformRequest>) => {
  const path = new URL(req.url ?? "/", "http://localhost").pathname
  const text = await readBody(req)
  let body: any = undefined
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = text
  }
  const answer = (status: number, payload: unknown) => {
    requests.push({ method: req.method ?? "", path, headers: req.headers, body, status, at: Date.now() })
    json(res, status, payload)
  }
  return { answer, body, path }
}

// ---------------------------------------------------------------------------------------------
// messenger-a: the Telegram Bot API

export interface TelegramServer {
  readonly url: string
  readonly botToken: string
  readonly secretToken: string
  /** Every text the bot sent, in order. */
  readonly sent: Array<SentMessage>
  readonly requests: Array<PlatformRequest>
  /** Chats that blocked the bot: sendMessage answers 403. */
  readonly blocked: Set<string>
  /** The next `times` sendMessage calls answer 429 with `retry_after` seconds. */
  readonly floodControl: (times: number, retryAfterSeconds: number) => void
  /** The texts sent to one chat. */
  readonly to: (chatId: string | number) => Array<string>
  /** Waits until the chat has received `count` messages; answers them. */
  readonly waitFor: (chatId: string | number, count: number) => Effect.Effect<Array<string>>
}

export const startTelegramServer: Effect.Effect<TelegramServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(async () => {
    const botToken = `${100000 + Math.floor(Math.random() * 899999)}:AA${randomBytes(16).toString("base64url")}`
    const secretToken = `tg_secret_${randomBytes(12).toString("hex")}`
    const sent: Array<SentMessage> = []
    const requests: Array<PlatformRequest> = []
    const blocked = new Set<string>()
    let flood = { times: 0, retryAfter: 0 }
    let messageId = 1
    const server = createServer(async (req, res) => {
      const { answer, body, path } = await received(req, res, requests)
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(path)
      if (match === null) return answer(404, { ok: false, error_code: 404, description: "Not Found" })
      if (match[1] !== botToken) return answer(401, { ok: false, error_code: 401, description: "Unauthorized" })
      if (match[2] !== "sendMessage" || req.method !== "POST") return answer(404, { ok: false, error_code: 404, description: "Not Found" })
      if (!String(req.headers["content-type"] ?? "").includes("application/json") || typeof body !== "object" || body === null) {
        return answer(400, { ok: false, error_code: 400, description: "Bad Request: message text is empty" })
      }
      if (flood.times > 0) {
        flood = { ...flood, times: flood.times - 1 }
        return answer(429, {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${flood.retryAfter}`,
          parameters: { retry_after: flood.retryAfter }
        })
      }
      const chatId = body.chat_id
      if ((typeof chatId !== "number" || !Number.isInteger(chatId)) && typeof chatId !== "string") {
        return answer(400, { ok: false, error_code: 400, description: "Bad Request: chat_id is empty" })
      }
      if (typeof body.text !== "string" || body.text.trim() === "") {
        return answer(400, { ok: false, error_code: 400, description: "Bad Request: message text is empty" })
      }
      if (body.text.length > 4096) return answer(400, { ok: false, error_code: 400, description: "Bad Request: message is too long" })
      if (blocked.has(String(chatId))) {
        return answer(403, { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" })
      }
      sent.push({ chatId: String(chatId), text: body.text, at: Date.now() })
      answer(200, {
        ok: true,
        result: {
          message_id: messageId++,
          from: { id: Number(botToken.split(":")[0]), is_bot: true, first_name: "Callsight" },
          chat: { id: chatId, type: "private" },
          date: Math.floor(Date.now() / 1000),
          text: body.text
        }
      })
    })
    const url = await listen(server)
    const to = (chatId: string | number) => sent.filter((m) => m.chatId === String(chatId)).map((m) => m.text)
    return {
      url,
      botToken,
      secretToken,
      sent,
      requests,
      blocked,
      floodControl: (times: number, retryAfterSeconds: number) => {
        flood = { times, retryAfter: retryAfterSeconds }
      },
      to,
      waitFor: (chatId: string | number, count: number) => waitUntil(() => to(chatId), (texts) => texts.length >= count, `${count} messages to chat ${chatId}`),
      close: () => server.close()
    }
  }),
  (s) => Effect.sync(s.close)
)

let updateIds = 100_000 + Math.floor(Math.random() * 1_000_000)

/** A Telegram `Update` with a text message from a private chat (a fresh `update_id` unless given). */
export const update = (chatId: number, text: string | undefined, updateId = updateIds++) => ({
  update_id: updateId,
  message: {
    message_id: updateId % 100_000,
    from: { id: chatId, is_bot: false, first_name: "Ana", language_code: "en" },
    chat: { id: chatId, first_name: "Ana", type: "private" },
    date: Math.floor(Date.now() / 1000),
    ...(text === undefined ? { sticker: { file_id: "CAACAgIAAxkBAAE", width: 512, height: 512 } } : { text }),
    ...(text?.startsWith("/") ? { entities: [{ offset: 0, length: text.split(" ")[0]!.length, type: "bot_command" }] } : {})
  }
})

let chats = 7_000_000 + Math.floor(Math.random() * 1_000_000)
/** A chat id no other test uses. */
export const freshChat = () => chats++

// ---------------------------------------------------------------------------------------------
// messenger-b: the WhatsApp Cloud API

export interface WhatsAppServer {
  /** The Graph API's base URL, with its version: `http://127.0.0.1:port/v21.0`. */
  readonly url: string
  readonly accessToken: string
  readonly appSecret: string
  readonly verifyToken: string
  readonly phoneNumberId: string
  readonly sent: Array<SentMessage & { readonly messageId: string }>
  readonly requests: Array<PlatformRequest>
  readonly to: (waId: string) => Array<string>
  readonly waitFor: (waId: string, count: number) => Effect.Effect<Array<string>>
  /** A notification as the platform posts it, its body text and its signature header. */
  readonly notification: (
    value: { readonly messages?: Array<unknown>; readonly statuses?: Array<unknown>; readonly phoneNumberId?: string },
    options?: { readonly secret?: string }
  ) => { readonly body: string; readonly signature: string }
}

export const startWhatsAppServer: Effect.Effect<WhatsAppServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(async () => {
    const accessToken = `EAAG${randomBytes(24).toString("base64url")}`
    const appSecret = randomBytes(16).toString("hex")
    const verifyToken = `wa_verify_${randomBytes(8).toString("hex")}`
    const phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 1_000_000))
    const sent: Array<SentMessage & { readonly messageId: string }> = []
    const requests: Array<PlatformRequest> = []
    const server = createServer(async (req, res) => {
      const { answer, body, path } = await received(req, res, requests)
      const oauthError = (message: string, code: number, status = 400) =>
        answer(status, { error: { message, type: "OAuthException", code, fbtrace_id: randomBytes(8).toString("base64url") } })
      if (req.headers.authorization !== `Bearer ${accessToken}`) return oauthError("Invalid OAuth access token - Cannot parse access token", 190, 401)
      const match = /^\/v21\.0\/(\d+)\/messages$/.exec(path)
      if (match === null || req.method !== "POST") return oauthError("Unsupported request - method type: post", 100)
      if (match[1] !== phoneNumberId) return oauthError(`Unsupported post request. Object with ID '${match[1]}' does not exist`, 100)
      if (typeof body !== "object" || body === null || body.messaging_product !== "whatsapp") {
        return oauthError("(#100) The parameter messaging_product is required.", 100)
      }
      if (typeof body.to !== "string" || body.type !== "text" || typeof body.text?.body !== "string") {
        return oauthError("(#100) Invalid parameter", 100)
      }
      if (body.text.body.length > 4096) return oauthError("(#100) Param text['body'] must be at most 4096 characters long.", 100)
      const messageId = `wamid.${Buffer.from(randomUUID()).toString("base64url")}`
      sent.push({ chatId: body.to, text: body.text.body, at: Date.now(), messageId })
      answer(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: messageId }] })
    })
    const url = `${await listen(server)}/v21.0`
    const to = (waId: string) => sent.filter((m) => m.chatId === waId).map((m) => m.text)
    const notification: WhatsAppServer["notification"] = (value, options = {}) => {
      const body = JSON.stringify({
        object: "whatsapp_business_account",
        entry: [{
          id: "102290129340398",
          changes: [{
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: value.phoneNumberId ?? phoneNumberId },
              ...(value.messages === undefined ? {} : {
                contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: (value.messages[0] as any)?.from ?? "" }],
                messages: value.messages
              }),
              ...(value.statuses === undefined ? {} : { statuses: value.statuses })
            },
            field: "messages"
          }]
        }]
      })
      const signature = `sha256=${createHmac("sha256", options.secret ?? appSecret).update(body).digest("hex")}`
      return { body, signature }
    }
    return {
      url,
      accessToken,
      appSecret,
      verifyToken,
      phoneNumberId,
      sent,
      requests,
      to,
      waitFor: (waId: string, count: number) => waitUntil(() => to(waId), (texts) => texts.length >= count, `${count} messages to ${waId}`),
      notification,
      close: () => server.close()
    }
  }),
  (s) => Effect.sync(s.close)
)

/** A WhatsApp text message as the platform notifies it. */
export const waText = (from: string, body: string, id = `wamid.${Buffer.from(randomUUID()).toString("base64url")}`) => ({
  from,
  id,
  timestamp: String(Math.floor(Date.now() / 1000)),
  text: { body },
  type: "text"
})

let waIds = 4_915_100_000_000 + Math.floor(Math.random() * 1_000_000)
/** A WhatsApp user's id (a phone number) no other test uses. */
export const freshWaId = () => String(waIds++)

/** Polls `read` until `done` holds, 20 s at most. */
const waitUntil = <A>(read: () => A, done: (a: A) => boolean, what: string): Effect.Effect<A> =>
  Effect.gen(function* () {
    for (;;) {
      const value = read()
      if (done(value)) return value
      yield* Effect.sleep("50 millis")
    }
  }).pipe(Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error(`timed out waiting for ${what}`) }), Effect.orDie)
