/**
 * A local bot provider speaking the Recall.ai API v1 as it documents it: `POST /api/v1/bot/`
 * (201, the bot with its `status_changes`), `GET /api/v1/bot/{id}/`, `DELETE /api/v1/bot/{id}/`
 * (204 while the bot waits for its meeting, 400 once it joined), every call with
 * `Authorization: Token <key>` (401 `{"detail": "Invalid token."}` otherwise); a finished bot's
 * recording under `recordings[].media_shortcuts.video_mixed.data.download_url`, served from a
 * pre-signed-like URL without the key. The test moves a bot through its statuses (`advance`) and
 * sends the status webhook to the service as Recall does, through Svix: `svix-id`,
 * `svix-timestamp`, `svix-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the
 * `whsec_` secret. The signing is written here from that description, not taken from the
 * service's library, so the test checks the two agree.
 */
import { Effect, type Scope } from "effect"
import { createHmac, randomBytes, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface RecallStatusChange {
  readonly code: string
  readonly sub_code: string | null
  readonly message: string | null
  readonly created_at: string
}

export interface RecallBot {
  readonly id: string
  readonly meeting_url: string
  readonly join_at: string | null
  readonly bot_name: string
  readonly metadata: Record<string, string>
  readonly status_changes: Array<RecallStatusChange>
  readonly recordings: Array<unknown>
  deleted: boolean
}

export interface RecallRequest {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  readonly body: unknown
}

export interface RecallServer {
  readonly url: string
  readonly apiKey: string
  /** `whsec_…`, as the provider's dashboard shows it. */
  readonly webhookSecret: string
  readonly bots: Map<string, RecallBot>
  readonly requests: Array<RecallRequest>
  /** Downloads of recordings, by bot id. */
  readonly downloads: Array<string>
  /** Appends status changes; `recording` (bytes) becomes the bot's recording when it reaches `done`. */
  readonly advance: (
    botId: string,
    codes: ReadonlyArray<string | { readonly code: string; readonly sub_code?: string; readonly message?: string }>,
    options?: { readonly recording?: Uint8Array }
  ) => void
  /** The bot created for the meeting whose metadata names it. */
  readonly botOf: (meetingId: string) => RecallBot | undefined
  /** A status webhook as Recall sends it, signed with `secret` (default: the right one). */
  readonly signedWebhook: (
    botId: string,
    code: string,
    options?: { readonly secret?: string; readonly timestamp?: number; readonly legacy?: boolean }
  ) => { readonly body: string; readonly headers: Record<string, string> }
  /** Sends a webhook to `url` (the service's), answers its status. */
  readonly deliver: (url: string, webhook: { readonly body: string; readonly headers: Record<string, string> }) => Effect.Effect<number>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

/** Svix's signature of a message: base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
export const svixSignature = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64")).update(`${id}.${timestamp}.${body}`).digest("base64")}`

export const startRecallServer: Effect.Effect<RecallServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<RecallServer & { readonly close: () => void }>((resume) => {
    const apiKey = `recall-test-${randomUUID()}`
    const webhookSecret = `whsec_${randomBytes(24).toString("base64")}`
    const bots = new Map<string, RecallBot>()
    const media = new Map<string, Uint8Array>()
    const requests: Array<RecallRequest> = []
    const downloads: Array<string> = []
    let url = ""

    const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://localhost").pathname
      const text = await readBody(req)
      let body: unknown = undefined
      try {
        body = text === "" ? undefined : JSON.parse(text)
      } catch {
        body = text
      }
      const answer = (status: number, payload?: unknown) => {
        if (payload === undefined) {
          res.writeHead(status)
          return res.end()
        }
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(payload))
      }
      // the recording, from its "pre-signed" URL: no key
      const mediaMatch = /^\/media\/([\w-]+)\.mp4$/.exec(path)
      if (req.method === "GET" && mediaMatch !== null) {
        const bytes = media.get(mediaMatch[1]!)
        if (bytes === undefined) return answer(404, { detail: "Not found." })
        downloads.push(mediaMatch[1]!)
        res.writeHead(200, { "content-type": "video/mp4", "content-length": String(bytes.length) })
        return res.end(Buffer.from(bytes))
      }
      requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body })
      if (req.headers.authorization !== `Token ${apiKey}`) return answer(401, { detail: "Invalid token." })
      if (req.method === "POST" && path === "/api/v1/bot/") {
        const b = (body ?? {}) as Record<string, any>
        if (typeof b["meeting_url"] !== "string" || !/^https:\/\//.test(b["meeting_url"])) {
          return answer(400, { meeting_url: ["Enter a valid URL."] })
        }
        const bot: RecallBot = {
          id: randomUUID(),
          meeting_url: b["meeting_url"],
          join_at: b["join_at"] ?? null,
          bot_name: b["bot_name"] ?? "Meeting Notetaker",
          metadata: b["metadata"] ?? {},
          status_changes: [{ code: "ready", sub_code: null, message: null, created_at: new Date().toISOString() }],
          recordings: [],
          deleted: false
        }
        bots.set(bot.id, bot)
        return answer(201, bot)
      }
      const botMatch = /^\/api\/v1\/bot\/([\w-]+)\/$/.exec(path)
      const bot = botMatch === null ? undefined : bots.get(botMatch[1]!)
      if (botMatch !== null && (bot === undefined || bot.deleted)) return answer(404, { detail: "Not found." })
      if (req.method === "GET" && bot !== undefined) return answer(200, bot)
      if (req.method === "DELETE" && bot !== undefined) {
        const joined = bot.status_changes.some((c) => c.code !== "ready")
        if (joined) return answer(400, { detail: "Cannot delete a bot that has already joined a call." })
        bot.deleted = true
        return answer(204)
      }
      answer(404, { detail: "Not found." })
    })

    const advance: RecallServer["advance"] = (botId, codes, options = {}) => {
      const bot = bots.get(botId)
      if (bot === undefined) throw new Error(`no bot ${botId}`)
      for (const c of codes) {
        const change = typeof c === "string" ? { code: c } : c
        bot.status_changes.push({
          code: change.code,
          sub_code: "sub_code" in change ? change.sub_code ?? null : null,
          message: "message" in change ? change.message ?? null : null,
          created_at: new Date().toISOString()
        })
        if (change.code === "done" && options.recording !== undefined) {
          media.set(botId, options.recording)
          bot.recordings.push({
            id: randomUUID(),
            status: { code: "done", sub_code: null, updated_at: new Date().toISOString() },
            media_shortcuts: {
              video_mixed: {
                id: randomUUID(),
                status: { code: "done" },
                format: "mp4",
                data: { download_url: `${url}/media/${botId}.mp4?X-Amz-Signature=${randomBytes(8).toString("hex")}` }
              },
              transcript: null
            }
          })
        }
      }
    }

    const signedWebhook: RecallServer["signedWebhook"] = (botId, code, options = {}) => {
      const bot = bots.get(botId)
      const latest = bot?.status_changes.at(-1)
      const body = JSON.stringify(
        options.legacy === true
          ? { event: "bot.status_change", data: { bot_id: botId, status: { code, created_at: new Date().toISOString(), sub_code: latest?.sub_code ?? null, message: null } } }
          : {
            event: `bot.${code}`,
            data: {
              data: { code, sub_code: latest?.sub_code ?? null, updated_at: new Date().toISOString() },
              bot: { id: botId, metadata: bot?.metadata ?? {} }
            }
          }
      )
      const id = `msg_${randomBytes(12).toString("hex")}`
      const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000)
      return {
        body,
        headers: {
          "content-type": "application/json",
          "svix-id": id,
          "svix-timestamp": String(timestamp),
          "svix-signature": svixSignature(options.secret ?? webhookSecret, id, timestamp, body)
        }
      }
    }

    const deliver: RecallServer["deliver"] = (target, webhook) =>
      Effect.promise(() => fetch(target, { method: "POST", headers: webhook.headers, body: webhook.body }).then((r) => r.status))

    server.listen(0, "127.0.0.1", () => {
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resume(Effect.succeed({
        url,
        apiKey,
        webhookSecret,
        bots,
        requests,
        downloads,
        advance,
        botOf: (meetingId) => [...bots.values()].find((b) => b.metadata["callsight_meeting_id"] === meetingId),
        signedWebhook,
        deliver,
        close: () => server.close()
      }))
    })
  }),
  (s) => Effect.sync(s.close)
)
