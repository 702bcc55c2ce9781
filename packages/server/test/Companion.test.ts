/**
 * The companion channels end to end, against local servers speaking the Telegram Bot API
 * (messenger-a) and the WhatsApp Cloud API (messenger-b) as they document them: they receive the
 * service's `sendMessage` and Graph `messages` calls and check them, and the tests post updates to
 * the service's webhooks as the platforms do, signed and unsigned, duplicated, malformed, oversized.
 *
 * The rules checked: the secret header and the body's HMAC, in constant time, before anything is
 * read (401, nothing processed); 503 naming the variables of an unconfigured channel; each update
 * handled once by its id, even delivered twice at once; connect codes short, unambiguous, single
 * use, expiring, stored hashed, answered the same whatever is wrong with them, limited per chat; a
 * chat of one tenant never sees another's data, an unlinked chat gets only the help; push sends each
 * tenant's own daily brief, honours the platform's `retry_after`, and counts what failed; the
 * tenant's `companion.enabled` gates everything; no secret in an answer, a log line or a row.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import type { AppConfigShape } from "../src/config.js"
import { newConnectCode } from "../src/companion/Companion.js"
import { signatureMatches } from "../src/companion/MessengerB.js"
import { secretsMatch, splitText } from "../src/companion/Messengers.js"
import { normalizeCode, parseCommand } from "../src/companion/Replies.js"
import { admin, setFlags } from "./utils/AudioRequests.js"
import {
  freshChat,
  freshWaId,
  startTelegramServer,
  startWhatsAppServer,
  type TelegramServer,
  update,
  waText,
  type WhatsAppServer
} from "./utils/MessengerServers.js"
import { call } from "./utils/PortalRequests.js"
import { testServerLayer } from "./utils/TestServer.js"

class Platforms extends Context.Tag("test/Platforms")<Platforms, {
  readonly tg: TelegramServer
  readonly wa: WhatsAppServer
  readonly logs: Array<string>
  /** Every connect code issued in this file, to look for in the logs and the rows. */
  readonly codes: Array<string>
}>() {}

const BASE = "https://callsight.example.com"

const platformConfig = (tg: TelegramServer, wa: WhatsAppServer): Partial<AppConfigShape> => ({
  publicBaseUrl: BASE,
  messengerABotToken: Option.some(Redacted.make(tg.botToken)),
  messengerASecretToken: Option.some(Redacted.make(tg.secretToken)),
  messengerAApiUrl: tg.url,
  messengerBVerifyToken: Option.some(Redacted.make(wa.verifyToken)),
  messengerBAppSecret: Option.some(Redacted.make(wa.appSecret)),
  messengerBAccessToken: Option.some(Redacted.make(wa.accessToken)),
  messengerBPhoneNumberId: Option.some(wa.phoneNumberId),
  messengerBApiUrl: wa.url
})

const withPlatforms = Layer.unwrapScoped(Effect.gen(function* () {
  const tg = yield* startTelegramServer
  const wa = yield* startWhatsAppServer
  const logs: Array<string> = []
  return Layer.merge(
    testServerLayer(platformConfig(tg, wa), { logs }),
    Layer.succeed(Platforms, { tg, wa, logs, codes: [] })
  )
}))

/**
 * messenger-a configured, its API at a port where nothing listens; its retries 50, 100 and 200 ms
 * apart (MESSENGER_RETRY_BASE_MS) rather than 1, 2 and 4 s: the same four attempts.
 */
const withUnreachablePlatform = Layer.unwrapScoped(Effect.gen(function* () {
  const tg = yield* startTelegramServer
  const wa = yield* startWhatsAppServer
  const logs: Array<string> = []
  return Layer.merge(
    testServerLayer({ ...platformConfig(tg, wa), messengerAApiUrl: "http://127.0.0.1:9/telegram", messengerRetryBaseMs: 50 }, { logs }),
    Layer.succeed(Platforms, { tg, wa, logs, codes: [] })
  )
}))

// ---------------------------------------------------------------------------------------------
// Requests

const A_WEBHOOK = "/v1/companion/messenger-a/webhook"
const B_WEBHOOK = "/v1/companion/messenger-b/webhook"
const CODES = "/v1/internal/admin/companion/connect-code"
const PUSH = "/v1/internal/admin/companion/push"
const STATUS = "/v1/internal/admin/companion/status"

/** A POST with a body sent byte for byte as given. */
const postRaw = (path: string, body: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.post(path).pipe(
        HttpClientRequest.setHeaders(headers),
        HttpClientRequest.bodyText(body, headers["content-type"] ?? "application/json")
      )
    )
    const text = yield* response.text
    const isJson = (response.headers["content-type"] ?? "").includes("json")
    return { status: response.status, body: isJson && text !== "" ? JSON.parse(text) : text, headers: response.headers }
  }).pipe(Effect.orDie)

/** Posts a Telegram update as the platform does, with the secret token header (the right one unless given). */
const sendA = (body: unknown, options: { readonly secret?: string | null; readonly header?: string } = {}) =>
  Effect.flatMap(Platforms, ({ tg }) => {
    const secret = options.secret === undefined ? tg.secretToken : options.secret
    const headers: Record<string, string> = secret === null ? {} : { [options.header ?? "x-messenger-a-bot-api-secret-token"]: secret }
    return postRaw(A_WEBHOOK, typeof body === "string" ? body : JSON.stringify(body), headers)
  })

/** A text from a Telegram chat; answers the webhook's status. */
const say = (chatId: number, text: string) =>
  Effect.map(sendA(update(chatId, text)), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply
  })

/** Posts a WhatsApp notification with its signature header (when given). */
const sendB = (notification: { readonly body: string; readonly signature?: string | undefined }) =>
  postRaw(B_WEBHOOK, notification.body, notification.signature === undefined ? {} : { "x-hub-signature-256": notification.signature })

const sayB = (waId: string, text: string) =>
  Effect.flatMap(Platforms, ({ wa }) =>
    Effect.map(sendB(wa.notification({ messages: [waText(waId, text)] })), (reply) => {
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      return reply
    }))

const adminCall = (method: "GET" | "POST", path: string, body?: unknown) =>
  call(method, path, { headers: admin, ...(body === undefined ? {} : { body }) })

/** A tenant made by staff, with its owner; its id. */
const newClient = (company: string, ownerEmail?: string) =>
  Effect.map(
    adminCall("POST", "/v1/internal/admin/clients", { company_name: company, ...(ownerEmail === undefined ? {} : { owner_email: ownerEmail }) }),
    (r) => {
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      return r.body as { client_id: string; owner_user_id: string | null }
    }
  )

/** A connect code for the tenant, kept to look for it in the logs later. */
const issueCode = (clientId: string, channel: "messenger-a" | "messenger-b", extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const { codes } = yield* Platforms
    const reply = yield* adminCall("POST", `${CODES}?client_id=${clientId}`, { channel, ...extra })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    codes.push(reply.body.code)
    return reply.body as { code: string; start_command: string; created_at: string; expires_at: string; user_id: string | null }
  })

/** A Telegram chat linked to the tenant through a fresh code; the chat's id. */
const linkedChat = (clientId: string, company: string) =>
  Effect.gen(function* () {
    const { tg } = yield* Platforms
    const chat = freshChat()
    const { start_command } = yield* issueCode(clientId, "messenger-a")
    yield* say(chat, start_command)
    const [reply] = yield* tg.waitFor(chat, 1)
    expect(reply).toBe(`This chat is now linked to ${company}. Send /brief for the daily brief, /calls for the latest calls.`)
    return chat
  })

/** Sends `text` and waits for the chat's next message (its answer). */
const ask = (chat: number, text: string) =>
  Effect.gen(function* () {
    const { tg } = yield* Platforms
    const before = tg.to(chat).length
    yield* say(chat, text)
    const texts = yield* tg.waitFor(chat, before + 1)
    return texts[before]!
  })

const DAY = 86_400_000
const todayStartUtc = () => {
  const now = new Date()
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
}

/** A call of the tenant straight into the database, created `createdAt`, completed with `overall`. */
const seedCall = (clientId: string, s: { readonly createdAt: Date; readonly overall: number; readonly closer: string; readonly externalId?: string }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_${randomBytes(8).toString("hex")}`
    const result = { scorecard: { overall: s.overall, dimensions: [] }, evidence: [], objections: [], next_steps: [], transcript: [] }
    yield* sql`INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                                  created_at, started_at, completed_at, duration_s, result)
               VALUES (${callId}, ${clientId}, ${s.externalId ?? null}, ${s.closer}, 'completed', 'mp3', ${`${clientId}/${callId}.mp3`}, 1, 'x',
                       ${s.createdAt.toISOString()}, ${s.createdAt.toISOString()}, ${new Date(s.createdAt.getTime() + 60_000).toISOString()},
                       600, ${JSON.stringify(result)}::jsonb)`
    return callId
  }).pipe(Effect.orDie)

const rows = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.orDie(Effect.flatMap(SqlClient.SqlClient, f))

const HELP_UNLINKED =
  "Callsight companion. This chat is not linked to a team yet: send /start followed by the connect code your Callsight contact gave you, e.g. /start 7KQ2XWHM."
const REFUSED = "That code is not valid. A code works once and expires; ask your Callsight contact for a new one."

// ---------------------------------------------------------------------------------------------

describe("companion channels", () => {
  describe("the pieces", () => {
    it("secrets and signatures compare whatever their lengths, without throwing", () => {
      expect(secretsMatch("abc", "abc")).toBe(true)
      for (const given of [undefined, "", "ab", "abcd", "ABC", "abc\u0000"]) expect(secretsMatch(given, "abc")).toBe(false)
      const body = "{\"object\":\"whatsapp_business_account\",\"entry\":[]}"
      const hex = createHmac("sha256", "app-secret").update(body).digest("hex")
      expect(signatureMatches(body, `sha256=${hex}`, "app-secret")).toBe(true)
      expect(signatureMatches(body, `sha256=${hex.toUpperCase()}`, "app-secret")).toBe(true) // hex is hex in either case
      for (const header of [undefined, "", hex, `sha256=${hex.slice(2)}`, `sha256=${hex}00`, `sha1=${hex}`, `sha256=${"0".repeat(64)}`]) {
        expect(signatureMatches(body, header, "app-secret")).toBe(false)
      }
      expect(signatureMatches(`${body} `, `sha256=${hex}`, "app-secret")).toBe(false)
    })

    it("codes: 8 characters without 0, O, 1, I; typed in any case, with spaces or dashes", () => {
      const seen = new Set<string>()
      for (let i = 0; i < 2000; i++) {
        const code = newConnectCode()
        expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/)
        seen.add(code)
      }
      expect(seen.size).toBe(2000)
      expect(normalizeCode("7kq2-xwhm")).toBe("7KQ2XWHM")
      expect(normalizeCode(" 7KQ2 XWHM ")).toBe("7KQ2XWHM")
      for (const bad of ["7KQ2XWH", "7KQ2XWHMM", "0KQ2XWHM", "OKQ2XWHM", "1KQ2XWHM", "IKQ2XWHM", "7KQ2XWH!"]) expect(normalizeCode(bad)).toBeNull()
    })

    it("commands: with or without the slash, a group's @bot suffix; a sentence is not a command", () => {
      expect(parseCommand("/start 7KQ2 XWHM")).toEqual({ _tag: "Start", code: "7KQ2XWHM" })
      expect(parseCommand("/start@CallsightBot 7KQ2XWHM")).toEqual({ _tag: "Start", code: "7KQ2XWHM" })
      expect(parseCommand("/start")).toEqual({ _tag: "Start", code: null })
      expect(parseCommand("/BRIEF")).toEqual({ _tag: "Brief" })
      expect(parseCommand("/brief@CallsightBot now")).toEqual({ _tag: "Brief" })
      expect(parseCommand("calls")).toEqual({ _tag: "Calls" })
      expect(parseCommand(" Stop ")).toEqual({ _tag: "Stop" })
      expect(parseCommand("brief me on the deal")).toEqual({ _tag: "Help" })
      expect(parseCommand("calls@x")).toEqual({ _tag: "Help" })
      expect(parseCommand("")).toEqual({ _tag: "Help" })
    })

    it("a long text goes out in parts of at most 4096 characters, cut between lines", () => {
      const lines = Array.from({ length: 300 }, (_, i) => `• line ${i} ${"x".repeat(30)}`)
      const parts = splitText(lines.join("\n"))
      expect(parts.length).toBeGreaterThan(2)
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096)
      expect(parts.join("\n")).toBe(lines.join("\n"))
      expect(splitText("y".repeat(9000)).map((p) => p.length)).toEqual([4096, 4096, 808])
      expect(splitText("short")).toEqual(["short"])
    })
  })

  layer(withPlatforms, { excludeTestServices: true })("with local Telegram and WhatsApp servers", (it) => {
    it.effect("messenger-a: the secret header is checked first (401, nothing processed); bad bodies are 4xx, never 5xx", () =>
      Effect.gen(function* () {
        const { tg } = yield* Platforms
        const chat = freshChat()
        const before = tg.requests.length
        const body = update(chat, "hello")

        const missing = yield* sendA(body, { secret: null })
        expect(missing.status).toBe(401)
        expect(missing.body).toEqual({ _tag: "Unauthorized", message: "the secret token header is missing or wrong" })
        expect((yield* sendA(body, { secret: `${tg.secretToken.slice(0, -1)}x` })).status).toBe(401)
        expect((yield* sendA(body, { secret: "short" })).status).toBe(401)
        expect((yield* sendA(body, { secret: "" })).status).toBe(401)
        // a refused update was not recorded: the same update, signed, is handled
        const seen = yield* rows((sql) => sql`SELECT * FROM companion_updates WHERE update_key = ${String(body.update_id)}`)
        expect(seen).toEqual([])
        // the platform's own header name is accepted too
        expect((yield* sendA(body, { header: "x-telegram-bot-api-secret-token" })).status).toBe(200)
        expect(yield* tg.waitFor(chat, 1)).toEqual([HELP_UNLINKED])

        // what is not an update: 4xx with the `detail` body, nothing sent
        const notJson = yield* sendA("{\"update_id\": 1, ")
        expect(notJson.status).toBe(422)
        expect(notJson.body.detail).toEqual([{ loc: ["body"], msg: "the body is not valid JSON", type: "json_invalid" }])
        const noId = yield* sendA({ message: { chat: { id: chat }, text: "/brief" } })
        expect(noId.status).toBe(422)
        expect(noId.body.detail[0]).toMatchObject({ loc: ["body", "update_id"], type: "missing" })
        for (const bad of [
          { update_id: "12" },
          { update_id: -1 },
          { update_id: 1.5 },
          { update_id: 12, message: { chat: {}, text: "hi" } },
          { update_id: 12, message: { chat: { id: "abc" }, text: "hi" } },
          { update_id: 12, message: { chat: { id: 1 }, text: 42 } },
          [1, 2, 3],
          "just text"
        ]) {
          const reply = yield* sendA(bad)
          expect(reply.status, JSON.stringify(bad)).toBe(422)
          expect(Array.isArray(reply.body.detail)).toBe(true)
        }
        const oversized = yield* sendA(update(chat, "x".repeat(1024 * 1024 + 10)))
        expect(oversized.status).toBe(413)
        expect((yield* postRaw(A_WEBHOOK, "update_id=1", {
          "content-type": "application/x-www-form-urlencoded",
          "x-messenger-a-bot-api-secret-token": tg.secretToken
        })).status).toBe(415)
        // an update of another kind (an edited message) is acknowledged and not answered; a sticker neither
        expect((yield* sendA({ update_id: 990_000_001, edited_message: { chat: { id: chat }, text: "/brief" } })).status).toBe(200)
        expect((yield* sendA(update(chat, undefined))).status).toBe(200)
        // answered only to the first good update
        yield* say(chat, "/help")
        expect(yield* tg.waitFor(chat, 2)).toEqual([HELP_UNLINKED, HELP_UNLINKED])
        const sends = tg.requests.slice(before)
        expect(sends).toHaveLength(2)
        for (const r of sends) {
          expect(r.path).toBe(`/bot${tg.botToken}/sendMessage`)
          expect(r.headers["content-type"]).toContain("application/json")
          expect(r.body).toEqual({ chat_id: chat, text: HELP_UNLINKED })
        }
      }))

    it.effect("connect codes: short, unambiguous, hashed, single use, expiring; a wrong one answered without saying why", () =>
      Effect.gen(function* () {
        const { tg } = yield* Platforms
        const ownerEmail = `owner.${Date.now()}@acme.test`
        const acme = yield* newClient("Acme Codes", ownerEmail)

        // bad requests
        const noClient = yield* adminCall("POST", CODES, { channel: "messenger-a" })
        expect(noClient.status).toBe(422)
        expect(noClient.body.detail).toEqual([{ loc: ["query", "client_id"], msg: "required to issue a connect code: a chat is linked to one tenant", type: "missing" }])
        expect((yield* adminCall("POST", `${CODES}?client_id=cli_nope`, { channel: "messenger-a" })).status).toBe(404)
        expect((yield* adminCall("POST", `${CODES}?client_id=${acme.client_id}`, { channel: "messenger-c" })).status).toBe(422)
        expect((yield* adminCall("POST", `${CODES}?client_id=${acme.client_id}`, { channel: "messenger-a", ttl_minutes: 0 })).status).toBe(422)
        expect((yield* adminCall("POST", `${CODES}?client_id=${acme.client_id}`, { channel: "messenger-a", extra: true })).status).toBe(422)
        expect((yield* adminCall("POST", `${CODES}?client_id=${acme.client_id}`, { channel: "messenger-a", user_email: "nobody@acme.test" })).status).toBe(404)
        // no key: 401 (credentials are not validation, docs/decisions.md "Keys")
        expect((yield* call("POST", `${CODES}?client_id=${acme.client_id}`, { body: { channel: "messenger-a" } })).status).toBe(401)
        expect((yield* call("POST", `${CODES}?client_id=${acme.client_id}`, { body: { channel: "messenger-a" }, headers: { "x-api-key": "csa_wrong" } })).status).toBe(401)

        const issued = yield* issueCode(acme.client_id, "messenger-a", { user_email: ownerEmail.toUpperCase() })
        expect(issued.code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/)
        expect(issued).toMatchObject({ channel: "messenger-a", client_id: acme.client_id, user_id: acme.owner_user_id, start_command: `/start ${issued.code}` })
        expect(Date.parse(issued.expires_at) - Date.parse(issued.created_at)).toBe(15 * 60_000)
        const longer = yield* issueCode(acme.client_id, "messenger-a", { ttl_minutes: 60 })
        expect(Date.parse(longer.expires_at) - Date.parse(longer.created_at)).toBe(60 * 60_000)
        // kept only as a hash; the audit row names the code's id, never the code
        const stored = yield* rows((sql) => sql`SELECT * FROM companion_connect_codes WHERE client_id = ${acme.client_id}`)
        expect(stored).toHaveLength(2)
        expect(JSON.stringify(stored)).not.toContain(issued.code)
        const audit = yield* rows((sql) => sql<any>`SELECT * FROM audit_logs WHERE client_id = ${acme.client_id} AND action = 'companion.connect_code_issued'`)
        expect(audit).toHaveLength(2)
        expect(audit[0]).toMatchObject({ actor: "staff:admin", actor_type: "staff", target_type: "companion_connect_code" })
        expect(JSON.stringify(audit)).not.toContain(issued.code)
        expect((yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body.pending_codes).toBe(2)

        // a wrong code, an unlinked chat: the same answer, whatever is wrong
        const chat = freshChat()
        expect(yield* ask(chat, "/start ABCDEFGH")).toBe(REFUSED)
        expect(yield* ask(chat, "/start 0O1I0O1I")).toBe(REFUSED)
        // typed in lower case with a dash: the code; the chat is linked to the tenant and the code's user
        const typed = `${issued.code.slice(0, 4).toLowerCase()}-${issued.code.slice(4).toLowerCase()}`
        expect(yield* ask(chat, `/start ${typed}`)).toBe(
          "This chat is now linked to Acme Codes. Send /brief for the daily brief, /calls for the latest calls."
        )
        // used: another chat gets the wrong-code answer
        const other = freshChat()
        expect(yield* ask(other, `/start ${issued.code}`)).toBe(REFUSED)
        // a code of the other channel is not one of this channel
        const whatsappCode = yield* issueCode(acme.client_id, "messenger-b")
        expect(yield* ask(other, `/start ${whatsappCode.code}`)).toBe(REFUSED)
        // expired
        const expiring = yield* issueCode(acme.client_id, "messenger-a", { ttl_minutes: 1 })
        // (the only code of the tenant within 2 minutes of its end)
        const expired = yield* rows((sql) => sql`UPDATE companion_connect_codes SET expires_at = now() - interval '1 second'
                                                 WHERE client_id = ${acme.client_id} AND expires_at < now() + interval '2 minutes' RETURNING code_id`)
        expect(expired).toHaveLength(1)
        expect(yield* ask(other, expiring.start_command)).toBe(REFUSED)

        const status = (yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body
        expect(status.links).toHaveLength(1)
        expect(status.links[0]).toMatchObject({
          client_id: acme.client_id,
          company_name: "Acme Codes",
          user_id: acme.owner_user_id,
          channel: "messenger-a",
          chat_id: String(chat),
          active: true,
          unlinked_at: null
        })
        expect(status.pending_codes).toBe(2) // the 60-minute code and the messenger-b code
        const linkedRows = yield* rows((sql) => sql<any>`SELECT action, actor, actor_type, metadata FROM audit_logs
                                                         WHERE client_id = ${acme.client_id} AND action = 'companion.chat_linked'`)
        expect(linkedRows).toEqual([{
          action: "companion.chat_linked",
          actor: `messenger-a:${chat}`,
          actor_type: "system",
          metadata: { channel: "messenger-a", chat_id: String(chat), code_id: expect.stringMatching(/^ccd_/), user_id: acme.owner_user_id }
        }])
        const events = (yield* rows((sql) => sql<any>`SELECT type, platform, status FROM call_events WHERE client_id = ${acme.client_id}`))
        expect(events).toEqual([{ type: "companion_linked", platform: "messenger-a", status: "ok" }])
        expect(tg.to(other)).toEqual([REFUSED, REFUSED, REFUSED])
      }))

    it.effect("codes are rate limited per chat: past 5 tries the chat is told to wait and no code is looked at", () =>
      Effect.gen(function* () {
        const acme = yield* newClient("Acme Limits")
        const valid = yield* issueCode(acme.client_id, "messenger-a")
        const guesser = freshChat()
        for (let i = 0; i < 5; i++) expect(yield* ask(guesser, `/start WRONG${i}AB`)).toBe(REFUSED)
        expect(yield* ask(guesser, valid.start_command)).toBe("Too many codes were tried from this chat. Try again in 15 minutes.")
        // the valid code was not used: another chat links with it
        expect((yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body).toMatchObject({ pending_codes: 1, links: [] })
        const other = freshChat()
        expect(yield* ask(other, valid.start_command)).toMatch(/^This chat is now linked to Acme Limits\./)
        // the guesser's other messages are answered as before
        expect(yield* ask(guesser, "/brief")).toBe(HELP_UNLINKED)
      }))

    it.effect("an update delivered twice, one after the other or at once, is handled once", () =>
      Effect.gen(function* () {
        const { tg } = yield* Platforms
        const acme = yield* newClient("Acme Twice")
        const chat = freshChat()
        const code = yield* issueCode(acme.client_id, "messenger-a")
        const first = update(chat, code.start_command)
        expect((yield* sendA(first)).status).toBe(200)
        expect((yield* sendA(first)).status).toBe(200)
        const help = update(chat, "/help")
        const both = yield* Effect.all([sendA(help), sendA(help), sendA(help)], { concurrency: "unbounded" })
        expect(both.map((r) => r.status)).toEqual([200, 200, 200])
        yield* say(chat, "/calls")
        const texts = yield* tg.waitFor(chat, 3)
        yield* Effect.sleep("300 millis")
        expect(tg.to(chat)).toHaveLength(3)
        expect(texts[0]).toMatch(/^This chat is now linked to Acme Twice\./)
        expect(texts).toContain("Callsight companion for Acme Twice.\n/brief: the daily brief\n/calls: the latest calls with their scores\n/stop: unlink this chat")
        expect(texts).toContain("No calls yet for Acme Twice.")
        const recorded = yield* rows((sql) => sql`SELECT update_key FROM companion_updates WHERE update_key IN (${String(first.update_id)}, ${String(help.update_id)})`)
        expect(recorded).toHaveLength(2)
        expect(yield* rows((sql) => sql`SELECT * FROM companion_links WHERE chat_id = ${String(chat)}`)).toHaveLength(1)
      }))

    it.effect("a chat sees only its own tenant: /calls and /brief with scores and report links; unlinked chats get the help; relinking moves the chat", () =>
      Effect.gen(function* () {
        const { tg } = yield* Platforms
        const acme = yield* newClient("Acme Isolated")
        const globex = yield* newClient("Globex Isolated")
        const yesterday = (hours: number) => new Date(todayStartUtc() - DAY + hours * 3600_000)
        const acmeBest = yield* seedCall(acme.client_id, { createdAt: yesterday(9), overall: 88, closer: "ann@acme.test", externalId: "acme-deal-1" })
        const acmeLow = yield* seedCall(acme.client_id, { createdAt: yesterday(11), overall: 41, closer: "bob@acme.test" })
        const globexCall = yield* seedCall(globex.client_id, { createdAt: yesterday(10), overall: 55, closer: "gus@globex.test", externalId: "globex-secret-deal" })

        const acmeChat = yield* linkedChat(acme.client_id, "Acme Isolated")
        const globexChat = yield* linkedChat(globex.client_id, "Globex Isolated")

        const calls = yield* ask(acmeChat, "/calls")
        expect(calls.split("\n")[0]).toBe("Latest calls of Acme Isolated:")
        expect(calls).toContain(`: score 41 ${BASE}/v1/client-portal/calls/${acmeLow}/report`)
        expect(calls).toContain(`(acme-deal-1): score 88 ${BASE}/v1/client-portal/calls/${acmeBest}/report`)
        expect(calls.indexOf(acmeLow)).toBeLessThan(calls.indexOf(acmeBest)) // newest first

        const brief = yield* ask(acmeChat, "/brief")
        const date = new Date(todayStartUtc()).toISOString().slice(0, 10)
        expect(brief).toContain(`Daily brief for Acme Isolated, ${date}`)
        expect(brief).toContain("Yesterday: 2 calls, 2 analysed, average score 64.5.")
        expect(brief).toContain(`ann@acme.test: score 88 ${BASE}/v1/client-portal/calls/${acmeBest}/report`)
        expect(brief).toContain("Lowest call: bob@acme.test, score 41")
        for (const text of [calls, brief]) {
          for (const foreign of [globexCall, "globex", "Globex", "gus@"]) expect(text).not.toContain(foreign)
        }
        const theirs = yield* ask(globexChat, "/calls")
        expect(theirs).toContain(globexCall)
        expect(theirs).not.toContain(acmeBest)

        // unlinked chats get the help text and nothing else, whatever they ask
        const stranger = freshChat()
        for (const text of ["/brief", "/calls", "/stop", "brief", "what are my calls?", "/start"]) {
          expect(yield* ask(stranger, text)).toBe(HELP_UNLINKED)
        }

        // a code of another tenant moves the chat: it belongs to one tenant at a time
        const code = yield* issueCode(globex.client_id, "messenger-a")
        expect(yield* ask(acmeChat, code.start_command)).toMatch(/^This chat is now linked to Globex Isolated\./)
        const moved = yield* ask(acmeChat, "/calls")
        expect(moved).toContain(globexCall)
        expect(moved).not.toContain(acmeBest)
        const acmeStatus = (yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body
        expect(acmeStatus.links).toMatchObject([{ chat_id: String(acmeChat), active: false }])
        expect(acmeStatus.channels.find((c: any) => c.channel === "messenger-a").linked_chats).toBe(0)
        const unlinked = yield* rows((sql) => sql<any>`SELECT metadata FROM audit_logs WHERE client_id = ${acme.client_id} AND action = 'companion.chat_unlinked'`)
        expect(unlinked).toEqual([{ metadata: { channel: "messenger-a", chat_id: String(acmeChat), reason: "relinked" } }])

        // /stop unlinks: the chat is then told only how to link again
        expect(yield* ask(globexChat, "/stop")).toBe("This chat is no longer linked to Globex Isolated. Send /start with a new code to link it again.")
        expect(yield* ask(globexChat, "/calls")).toBe(HELP_UNLINKED)
        expect(tg.to(stranger)).toHaveLength(6)
      }))

    it.effect("a chat is limited to 20 messages a minute: past it, messages are recorded and not answered", () =>
      Effect.gen(function* () {
        const { tg } = yield* Platforms
        const chat = freshChat()
        for (let i = 0; i < 25; i++) yield* say(chat, `hello ${i}`)
        yield* tg.waitFor(chat, 20)
        yield* Effect.sleep("500 millis")
        expect(tg.to(chat)).toHaveLength(20)
        const limited = yield* rows((sql) => sql<any>`SELECT count(*)::int AS n FROM companion_updates WHERE kind = 'rate_limited'`)
        expect(limited[0].n).toBe(5)
      }))

    it.effect("push: every linked chat of the tenant gets its daily brief; sent and failed counted; 429 retry_after honoured", () =>
      Effect.gen(function* () {
        const { tg, wa } = yield* Platforms
        const acme = yield* newClient("Acme Push")
        const globex = yield* newClient("Globex Push")
        yield* seedCall(acme.client_id, { createdAt: new Date(todayStartUtc() - DAY / 2), overall: 77, closer: "ann@acme.test" })
        const chat = yield* linkedChat(acme.client_id, "Acme Push")
        const blocked = yield* linkedChat(acme.client_id, "Acme Push")
        tg.blocked.add(String(blocked))
        const waId = freshWaId()
        const waCode = yield* issueCode(acme.client_id, "messenger-b")
        yield* sayB(waId, waCode.start_command)
        yield* wa.waitFor(waId, 1)
        const globexChat = yield* linkedChat(globex.client_id, "Globex Push")

        // bad requests
        expect((yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "text" })).status).toBe(422)
        expect((yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "weekly" })).status).toBe(422)
        expect((yield* adminCall("POST", `${PUSH}?client_id=cli_nope`, { kind: "daily_brief" })).status).toBe(404)

        const pushed = yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "daily_brief" })
        expect(pushed.status, JSON.stringify(pushed.body)).toBe(200)
        expect(pushed.body).toMatchObject({ kind: "daily_brief", channel: null, client_id: acme.client_id, sent: 2, failed: 1, skipped: 0 })
        const byChat = Object.fromEntries(pushed.body.deliveries.map((d: any) => [d.chat_id, d]))
        expect(byChat[String(chat)]).toMatchObject({ client_id: acme.client_id, channel: "messenger-a", status: "sent", error: null })
        expect(byChat[waId]).toMatchObject({ channel: "messenger-b", status: "sent" })
        expect(byChat[String(blocked)]).toMatchObject({ status: "failed", sent_at: null })
        // the platform, the status and our reason; never the platform's own words
        expect(byChat[String(blocked)].error).toBe("messenger-a answered the sendMessage with HTTP 403: access was denied")
        expect(byChat[String(globexChat)]).toBeUndefined()
        const brief = tg.to(chat).at(-1)!
        expect(brief).toContain("Daily brief for Acme Push")
        expect(brief).toContain("Yesterday: 1 call, 1 analysed, average score 77.")
        expect(wa.to(waId).at(-1)).toBe(brief)
        expect(tg.to(globexChat)).toHaveLength(1) // only its link confirmation
        // the Graph API call as documented
        const graph = wa.requests.filter((r) => r.status === 200).at(-1)!
        expect(graph.path).toBe(`/v21.0/${wa.phoneNumberId}/messages`)
        expect(graph.headers.authorization).toBe(`Bearer ${wa.accessToken}`)
        expect(graph.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: waId, type: "text", text: { preview_url: false, body: brief } })

        // flood control: the platform's retry_after is waited before the next attempt
        tg.floodControl(1, 2)
        const before = tg.requests.length
        const text = yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "text", text: "Pipeline review at 3 pm", channel: "messenger-a" })
        expect(text.body).toMatchObject({ kind: "text", channel: "messenger-a", sent: 1, failed: 1, skipped: 0 })
        const attempts = tg.requests.slice(before).filter((r) => (r.body as any)?.text === "Pipeline review at 3 pm")
        const first429 = attempts.find((r) => r.status === 429)!
        const retried = attempts.find((r) => r.status === 200)!
        expect(retried.at - first429.at).toBeGreaterThanOrEqual(1950)
        expect(tg.to(chat).at(-1)).toBe("Pipeline review at 3 pm")
        expect(wa.to(waId).at(-1)).toBe(brief) // not on messenger-b

        // status: last activity per link
        const status = (yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body
        expect(status).toMatchObject({ client_id: acme.client_id, enabled: true, pending_codes: 0 })
        expect(status.channels).toEqual([
          { channel: "messenger-a", configured: true, missing: [], linked_chats: 2, last_update_at: expect.any(String) },
          { channel: "messenger-b", configured: true, missing: [], linked_chats: 1, last_update_at: expect.any(String) }
        ])
        const linkOf = (id: string) => status.links.find((l: any) => l.chat_id === id)
        expect(linkOf(String(chat)).last_push_at).not.toBeNull()
        expect(linkOf(String(blocked)).last_push_at).toBeNull()
        expect(linkOf(waId).last_message_at).not.toBeNull()
        const audit = yield* rows((sql) => sql<any>`SELECT metadata FROM audit_logs WHERE client_id = ${acme.client_id} AND action = 'companion.pushed' ORDER BY at`)
        expect(audit.map((a) => a.metadata)).toEqual([
          { kind: "daily_brief", channel: null, sent: 2, failed: 1, skipped: 0 },
          { kind: "text", channel: "messenger-a", sent: 1, failed: 1, skipped: 0 }
        ])
        const failures = yield* rows((sql) => sql<any>`SELECT type, platform, status FROM call_events WHERE client_id = ${acme.client_id} AND type = 'companion_delivery_failed'`)
        expect(failures).toHaveLength(2)

        // without client_id: every tenant's chats, each with its own brief
        const all = yield* adminCall("POST", PUSH, { kind: "daily_brief", channel: "messenger-a" })
        expect(all.status).toBe(200)
        expect(all.body.client_id).toBeNull()
        const globexBrief = tg.to(globexChat).at(-1)!
        expect(globexBrief).toContain("Daily brief for Globex Push")
        expect(globexBrief).not.toContain("Acme")
        expect(globexBrief).toContain("No calls yesterday.")
        expect(tg.to(chat).at(-1)).toContain("Daily brief for Acme Push")
      }))

    it.effect("companion.enabled false gates all of it: no codes, no pushes, no answers with data; status still shows it", () =>
      Effect.gen(function* () {
        const { tg } = yield* Platforms
        const acme = yield* newClient("Acme Off")
        const chat = yield* linkedChat(acme.client_id, "Acme Off")
        yield* seedCall(acme.client_id, { createdAt: new Date(Date.now() - 3600_000), overall: 66, closer: "ann@acme.test" })
        const earlier = yield* issueCode(acme.client_id, "messenger-a")
        yield* setFlags(acme.client_id, { "companion.enabled": false })

        const code = yield* adminCall("POST", `${CODES}?client_id=${acme.client_id}`, { channel: "messenger-a" })
        expect(code.status).toBe(409)
        expect(code.body.message).toContain("companion.enabled")
        expect((yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "daily_brief" })).status).toBe(409)
        const off = "The Callsight companion is turned off for your team. Ask your Callsight contact to turn it on."
        expect(yield* ask(chat, "/brief")).toBe(off)
        expect(yield* ask(chat, "/calls")).toBe(off)
        expect(yield* ask(chat, "hi")).toBe(off)
        // its codes are answered as wrong ones, and kept
        const newcomer = freshChat()
        expect(yield* ask(newcomer, earlier.start_command)).toBe(REFUSED)
        const status = (yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body
        expect(status).toMatchObject({ enabled: false, pending_codes: 1 })
        // a push to every tenant skips its chats
        const all = yield* adminCall("POST", PUSH, { kind: "text", text: "Hello teams" })
        expect(all.body.deliveries.find((d: any) => d.chat_id === String(chat))).toMatchObject({
          status: "skipped",
          error: "the companion is turned off for this tenant (companion.enabled)"
        })
        expect(tg.to(chat)).not.toContain("Hello teams")

        yield* setFlags(acme.client_id, { "companion.enabled": true })
        expect(yield* ask(newcomer, earlier.start_command)).toMatch(/^This chat is now linked to Acme Off\./)
        expect(yield* ask(chat, "/calls")).toContain("score 66")
      }))

    it.effect("messenger-b: subscription verification, the body's signature before anything, messages once each, statuses recorded not answered", () =>
      Effect.gen(function* () {
        const { wa } = yield* Platforms
        const verify = (query: string) => call("GET", `${B_WEBHOOK}?${query}`)
        const good = yield* verify(`hub.mode=subscribe&hub.verify_token=${wa.verifyToken}&hub.challenge=1158201444`)
        expect(good.status).toBe(200)
        expect(good.headers["content-type"]).toContain("text/plain")
        expect(good.body).toBe("1158201444")
        for (const query of [
          `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
          `hub.mode=unsubscribe&hub.verify_token=${wa.verifyToken}&hub.challenge=1`,
          `hub.challenge=1`,
          ""
        ]) {
          const refused = yield* verify(query)
          expect(refused.status, query).toBe(403)
          expect(refused.body._tag).toBe("Forbidden")
        }

        const acme = yield* newClient("Acme WhatsApp")
        const waId = freshWaId()
        const code = yield* issueCode(acme.client_id, "messenger-b")
        const start = wa.notification({ messages: [waText(waId, code.start_command)] })
        // unsigned, signed with another secret, or a signature of another body: 401 and nothing processed
        expect((yield* sendB({ body: start.body })).status).toBe(401)
        expect((yield* sendB({ body: start.body, signature: wa.notification({ messages: [] }, { secret: "not-the-app-secret" }).signature })).status).toBe(401)
        expect((yield* sendB({ body: start.body.replace(waId, freshWaId()), signature: start.signature })).status).toBe(401)
        expect((yield* sendB({ body: start.body, signature: start.signature.replace("sha256=", "sha1=") })).status).toBe(401)
        expect((yield* sendB({ body: start.body, signature: start.signature.toUpperCase() })).status).toBe(401)
        expect(wa.to(waId)).toEqual([])
        expect((yield* adminCall("GET", `${STATUS}?client_id=${acme.client_id}`)).body.pending_codes).toBe(1)

        // signed: handled once, however often it arrives
        expect((yield* sendB(start)).status).toBe(200)
        expect((yield* sendB(start)).status).toBe(200)
        expect(yield* wa.waitFor(waId, 1)).toEqual(["This chat is now linked to Acme WhatsApp. Send /brief for the daily brief, /calls for the latest calls."])
        const reply = wa.sent.find((m) => m.chatId === waId)!

        // statuses of our message: recorded (forward only, once), never answered
        const statuses = wa.notification({
          statuses: [
            { id: reply.messageId, status: "delivered", timestamp: "1", recipient_id: waId },
            { id: reply.messageId, status: "read", timestamp: "2", recipient_id: waId },
            { id: reply.messageId, status: "delivered", timestamp: "3", recipient_id: waId }
          ]
        })
        expect((yield* sendB(statuses)).status).toBe(200)
        expect((yield* sendB(statuses)).status).toBe(200)
        const delivery = yield* rows((sql) => sql<any>`SELECT status, kind, purpose, client_id FROM companion_deliveries WHERE provider_message_id = ${reply.messageId}`)
        expect(delivery).toEqual([{ status: "read", kind: "reply", purpose: "linked", client_id: acme.client_id }])
        const recorded = yield* rows((sql) => sql<any>`SELECT update_key FROM companion_updates WHERE channel = 'messenger-b' AND kind = 'status' AND update_key LIKE ${`status:${reply.messageId}:%`}`)
        expect(recorded.map((r) => r.update_key).sort()).toEqual([`status:${reply.messageId}:delivered`, `status:${reply.messageId}:read`])

        // a message to another phone number of the business account is not ours
        const elsewhere = wa.notification({ messages: [waText(waId, "/calls")], phoneNumberId: "999999999" })
        expect((yield* sendB(elsewhere)).status).toBe(200)
        // several messages in one notification, and a picture (not text: not answered)
        const several = wa.notification({
          messages: [waText(waId, "/calls"), { from: waId, id: `wamid.img${Date.now()}`, type: "image", image: { id: "1", mime_type: "image/jpeg" } }, waText(waId, "/help")]
        })
        expect((yield* sendB(several)).status).toBe(200)
        const texts = yield* wa.waitFor(waId, 3)
        yield* Effect.sleep("300 millis")
        expect(wa.to(waId)).toHaveLength(3)
        expect(texts).toContain("No calls yet for Acme WhatsApp.")
        expect(texts).toContain("Callsight companion for Acme WhatsApp.\n/brief: the daily brief\n/calls: the latest calls with their scores\n/stop: unlink this chat")

        // malformed and oversized bodies, signed: 4xx
        const sign = (body: string) => ({ body, signature: `sha256=${createHmac("sha256", wa.appSecret).update(body).digest("hex")}` })
        for (const body of ["{", "[]", "{\"object\": \"whatsapp_business_account\"}", "{\"object\": 1, \"entry\": []}",
          JSON.stringify({ object: "whatsapp_business_account", entry: [{ changes: [{ value: { messages: [{ id: "x" }] } }] }] })]) {
          const reply = yield* sendB(sign(body))
          expect(reply.status, body).toBe(422)
          expect(Array.isArray(reply.body.detail)).toBe(true)
        }
        const big = wa.notification({ messages: [waText(waId, "y".repeat(1024 * 1024))] })
        expect((yield* sendB(big)).status).toBe(413)
        // another object's notification is acknowledged and ignored
        expect((yield* sendB(sign(JSON.stringify({ object: "page", entry: [] })))).status).toBe(200)
      }))

    it.effect("no secret in an answer, a log line, an audit row or a stored row", () =>
      Effect.gen(function* () {
        const { codes, logs, tg, wa } = yield* Platforms
        expect(logs.length).toBeGreaterThan(0)
        expect(codes.length).toBeGreaterThan(5)
        const tables = yield* Effect.all([
          rows((sql) => sql`SELECT * FROM audit_logs`),
          rows((sql) => sql`SELECT * FROM call_events`),
          rows((sql) => sql`SELECT * FROM companion_connect_codes`),
          rows((sql) => sql`SELECT * FROM companion_links`),
          rows((sql) => sql`SELECT * FROM companion_updates`),
          rows((sql) => sql`SELECT * FROM companion_deliveries`)
        ])
        const status = yield* adminCall("GET", STATUS)
        expect(status.status).toBe(200)
        expect(status.body.links.length).toBeGreaterThan(5)
        const places = [JSON.stringify(tables), logs.join("\n"), JSON.stringify(status.body)]
        for (const secret of [tg.botToken, tg.secretToken, wa.accessToken, wa.appSecret, wa.verifyToken, ...codes]) {
          for (const place of places) expect(place).not.toContain(secret)
        }
      }))
  })

  layer(withUnreachablePlatform, { excludeTestServices: true })("with a platform that cannot be reached", (it) => {
    it.effect("a push fails after its retries with a reason that never names the bot token (it is in the URL)", () =>
      Effect.gen(function* () {
        const { tg, logs } = yield* Platforms
        const acme = yield* newClient("Acme Unreachable")
        yield* rows((sql) => sql`INSERT INTO companion_links (link_id, client_id, channel, chat_id) VALUES ('cml_unreachable', ${acme.client_id}, 'messenger-a', '4242')`)
        const pushed = yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "text", text: "anyone there?" })
        expect(pushed.status).toBe(200)
        expect(pushed.body).toMatchObject({ sent: 0, failed: 1, skipped: 0 })
        expect(pushed.body.deliveries[0].error).toMatch(/could not reach messenger-a for the sendMessage after 4 attempt\(s\)/)
        const stored = yield* rows((sql) => sql`SELECT * FROM companion_deliveries`)
        for (const place of [JSON.stringify(pushed.body), JSON.stringify(stored), logs.join("\n")]) {
          expect(place).not.toContain(tg.botToken)
          expect(place).not.toContain(tg.botToken.split(":")[1])
        }
        expect(logs.some((line) => line.includes("sendMessage failed; retrying"))).toBe(true)
      }), { timeout: 60_000 })
  })

  layer(testServerLayer(), { excludeTestServices: true })("without the channels' variables", (it) => {
    it.effect("the webhooks answer 503 naming the missing variables; codes and pushes 409; status says what is missing", () =>
      Effect.gen(function* () {
        const a = yield* postRaw(A_WEBHOOK, JSON.stringify(update(freshChat(), "/brief")), { "x-messenger-a-bot-api-secret-token": "anything" })
        expect(a.status).toBe(503)
        expect(a.body).toEqual({
          _tag: "ServiceUnavailable",
          message: "messenger-a is not configured: MESSENGER_A_BOT_TOKEN, MESSENGER_A_SECRET_TOKEN are not set"
        })
        const missingB = "messenger-b is not configured: MESSENGER_B_VERIFY_TOKEN, MESSENGER_B_APP_SECRET, MESSENGER_B_ACCESS_TOKEN, MESSENGER_B_PHONE_NUMBER_ID are not set"
        const verify = yield* call("GET", `${B_WEBHOOK}?hub.mode=subscribe&hub.verify_token=&hub.challenge=1`)
        expect(verify.status).toBe(503)
        expect(verify.body.message).toBe(missingB)
        const b = yield* postRaw(B_WEBHOOK, "{}", { "x-hub-signature-256": "sha256=00" })
        expect(b.status).toBe(503)
        expect(b.body.message).toBe(missingB)

        const acme = yield* newClient("Acme Unconfigured")
        const code = yield* adminCall("POST", `${CODES}?client_id=${acme.client_id}`, { channel: "messenger-b" })
        expect(code.status).toBe(409)
        expect(code.body.message).toContain("MESSENGER_B_APP_SECRET")
        expect((yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "daily_brief", channel: "messenger-a" })).status).toBe(409)
        const empty = yield* adminCall("POST", `${PUSH}?client_id=${acme.client_id}`, { kind: "daily_brief" })
        expect(empty.body).toMatchObject({ sent: 0, failed: 0, skipped: 0, deliveries: [] })
        const status = (yield* adminCall("GET", STATUS)).body
        expect(status.channels).toEqual([
          { channel: "messenger-a", configured: false, missing: ["MESSENGER_A_BOT_TOKEN", "MESSENGER_A_SECRET_TOKEN"], linked_chats: 0, last_update_at: null },
          {
            channel: "messenger-b",
            configured: false,
            missing: ["MESSENGER_B_VERIFY_TOKEN", "MESSENGER_B_APP_SECRET", "MESSENGER_B_ACCESS_TOKEN", "MESSENGER_B_PHONE_NUMBER_ID"],
            linked_chats: 0,
            last_update_at: null
          }
        ])
        expect((yield* adminCall("GET", `${STATUS}?client_id=cli_nope`)).status).toBe(404)
      }))
  })
})
