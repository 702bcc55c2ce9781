/**
 * An upload retried by @callsight/client makes one call and takes one credit, against the real
 * `callsight serve`: a proxy in front of it forwards the first upload to the server, lets the
 * server accept it, and then drops the connection instead of passing the 202 on (the answer is
 * lost, the call made). The client retries with the same `Idempotency-Key` and the server answers
 * the first call's body. The same key sent again, or by uploads running at once, answers the same
 * call too; the tenant, with one credit, ends with one completed call and no credit left.
 */
import { CallsightError, createCallsightClient } from "@callsight/client"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_FILES, writeWavClip } from "./utils/Audio.js"
import { sharedServer } from "./utils/Server.js"

interface Forwarded {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  /** The upstream status and body (what the server answered, passed on or not). */
  readonly status: number
  readonly body: string
  readonly dropped: boolean
}

/**
 * A proxy to `target` that drops the connection, after the server has answered, for the uploads
 * whose ordinal (1-based) is in `dropUploads`.
 */
const lossyProxy = async (target: string, dropUploads: ReadonlySet<number>) => {
  const forwarded: Array<Forwarded> = []
  let uploads = 0
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    const isUpload = req.method === "POST" && req.url === "/v1/teams/audio"
    const ordinal = isUpload ? ++uploads : 0
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host }
    const out = httpRequest(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        const chunks: Array<Buffer> = []
        answer.on("data", (c: Buffer) => chunks.push(c))
        answer.on("end", () => {
          const body = Buffer.concat(chunks)
          const dropped = dropUploads.has(ordinal)
          forwarded.push({
            method: req.method ?? "",
            path: req.url ?? "",
            idempotencyKey: req.headers["idempotency-key"] as string | undefined,
            status: answer.statusCode ?? 0,
            body: body.toString(),
            dropped
          })
          if (dropped) return req.socket.destroy()
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          res.end(body)
        })
      }
    )
    out.on("error", () => req.socket.destroy())
    req.pipe(out)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, forwarded }
}

let server: { readonly url: string; readonly adminKey: string } | undefined
let proxy: Server | undefined
let scratch: string

beforeAll(async () => {
  server = await sharedServer()
  scratch = await mkdtemp(join(tmpdir(), "callsight-client-idempotency-"))
})

afterAll(async () => {
  if (proxy !== undefined) {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy!.close(resolve))
  }
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

describe("an upload retried after its answer was lost", () => {
  it("makes one call and takes one credit", async () => {
    const url = server!.url
    const admin = createCallsightClient({ baseUrl: url, apiKey: server!.adminKey })
    const tenant = await admin.admin.createClient({ company_name: "Idempotent Uploads Co", credits: 1 })
    const lossy = await lossyProxy(url, new Set([1]))
    proxy = lossy.server
    const clip = await readFile(await writeWavClip(FIXTURE_FILES.wav, join(scratch, "clip.wav"), 15))

    // the first attempt is accepted by the server and its answer lost; the retry gets the same call
    const client = createCallsightClient({ baseUrl: lossy.url, apiKey: tenant.api_key })
    const accepted = await client.uploadAudio(clip, { filename: "clip.wav", externalCallId: "lost-answer" })
    const uploads = lossy.forwarded.filter((f) => f.path === "/v1/teams/audio")
    expect(uploads.map((u) => [u.status, u.dropped])).toEqual([[202, true], [202, false]])
    expect(uploads[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(uploads[1]!.idempotencyKey).toBe(uploads[0]!.idempotencyKey)
    expect(JSON.parse(uploads[0]!.body).call_id).toBe(accepted.call_id)
    expect(JSON.parse(uploads[1]!.body)).toEqual(JSON.parse(uploads[0]!.body))

    // the same key again (directly, and three at once) answers the same call, without a credit check
    const direct = createCallsightClient({ baseUrl: url, apiKey: tenant.api_key })
    const key = uploads[0]!.idempotencyKey!
    const again = await Promise.all(
      [1, 2, 3, 4].map(() => direct.uploadAudio(clip, { filename: "clip.wav", externalCallId: "lost-answer", idempotencyKey: key }))
    )
    expect(again.map((a) => a.call_id)).toEqual(Array(4).fill(accepted.call_id))

    // the one credit is held by that call: another upload (a new key) is refused
    const refused = await direct.uploadAudio(clip, { filename: "clip.wav" }).then(() => undefined, (e: unknown) => e)
    expect(refused).toBeInstanceOf(CallsightError)
    expect((refused as CallsightError).status).toBe(402)

    const { calls } = await direct.listCalls()
    expect(calls.map((c) => c.call_id)).toEqual([accepted.call_id])
    const final = await direct.waitForCompletion(accepted.call_id, { timeoutMs: 90_000, intervalMs: 200, maxIntervalMs: 1_000 })
    expect(final.status).toBe("completed")
    expect(final.credits_charged).toBe(1)
    const balance = await admin.admin.grantCredits(tenant.client_id, { amount: 1, reason: "balance check" })
    expect(balance.balance).toBe(1)
  }, 120_000)
})
