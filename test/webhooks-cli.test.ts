/**
 * End to end through `callsight webhooks add | list | deliveries | redeliver | remove` against the
 * real `callsight serve` and its webhook sender, a local receiver verifying each message with the
 * SDK's `verifyWebhook`; a URL the service refuses is a usage error (exit 2). The commands run in
 * this process (`cliInProcess`), but the upload that waits for a failed analysis (`runCli`): the
 * exit code 1 a shell sees, and stdout holding the JSON alone after the wait.
 */
import { verifyWebhook } from "@callsight/client"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_FILES, writeWavClip } from "./utils/Audio.js"
import { cliInProcess } from "./utils/CliInProcess.js"
import { runCli, sharedServer } from "./utils/Server.js"

let server: { readonly url: string; readonly adminKey: string }
let scratch: string
let receiver: Server
let receiverUrl = ""
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
let tenantEnv: Record<string, string> = {}

beforeAll(async () => {
  // the shared server retries and polls webhooks quickly (SharedServer.ts)
  server = await sharedServer()
  scratch = await mkdtemp(join(tmpdir(), "callsight-webhooks-cli-"))
  receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  const created = await cliInProcess(["admin", "create-tenant", "--name", "CLI Webhooks", "--credits", "3", "--json"], {
    CALLSIGHT_URL: server.url,
    CALLSIGHT_ADMIN_KEY: server.adminKey
  })
  expect(created.code, created.stderr).toBe(0)
  tenantEnv = { CALLSIGHT_URL: server.url, CALLSIGHT_API_KEY: (JSON.parse(created.stdout) as { api_key: string }).api_key }
})

afterAll(async () => {
  receiver?.closeAllConnections()
  await new Promise<void>((resolve) => (receiver === undefined ? resolve() : receiver.close(() => resolve())))
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

const waitForRequests = async (count: number) => {
  const until = Date.now() + 60_000
  while (received.length < count) {
    if (Date.now() > until) throw new Error(`the receiver got ${received.length} requests, not ${count}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe("callsight webhooks", () => {
  it("adds an endpoint (secret printed once), receives a signed webhook, lists deliveries, redelivers, removes", { timeout: 120_000 }, async () => {
    const added = await cliInProcess(["webhooks", "add", receiverUrl, "--event", "analysis.failed", "--description", "cli test"], tenantEnv)
    expect(added.code, added.stderr).toBe(0)
    const webhookId = /^(whk_\w+)/.exec(added.stdout)?.[1]
    const secret = /secret: (whsec_\S+)/.exec(added.stdout)?.[1]
    expect(webhookId, added.stdout).toBeDefined()
    expect(secret, added.stdout).toBeDefined()
    expect(added.stdout).toContain("shown this once")

    const listed = await cliInProcess(["webhooks", "list", "--json"], tenantEnv)
    expect(listed.code, listed.stderr).toBe(0)
    const list = JSON.parse(listed.stdout)
    expect(list.webhooks).toMatchObject([{ webhook_id: webhookId, url: receiverUrl, events: ["analysis.failed"], status: "active" }])
    expect(listed.stdout).not.toContain(secret!)
    expect(list.callback_secret).toMatch(/^whsec_/)
    const again = await cliInProcess(["webhooks", "list"], tenantEnv)
    expect(again.stdout).toContain(webhookId!)
    expect(again.stdout).not.toContain("Callback secret")

    // a call of one second fails its analysis at once: an analysis.failed webhook
    const clip = await writeWavClip(FIXTURE_FILES.wav, join(scratch, "one-second.wav"), 1)
    // a process of its own: the exit code a shell sees, and the final status alone on stdout
    const uploaded = await runCli(["upload", clip, "--wait", "--json"], tenantEnv)
    expect(uploaded.code).toBe(1)
    const callId = JSON.parse(uploaded.stdout).call_id as string
    await waitForRequests(1)
    const event = await verifyWebhook(received[0].body, received[0].headers as Record<string, string>, secret!)
    expect(event).toMatchObject({ type: "analysis.failed", data: { call_id: callId, status: "failed", error: { code: "too_short" } } })

    const deliveries = await cliInProcess(["webhooks", "deliveries", webhookId!, "--json"], tenantEnv)
    expect(deliveries.code, deliveries.stderr).toBe(0)
    const [delivery] = JSON.parse(deliveries.stdout).deliveries
    expect(delivery).toMatchObject({ delivery_id: received[0].headers["webhook-id"], call_id: callId, status: "delivered" })
    const words = await cliInProcess(["webhooks", "deliveries", webhookId!], tenantEnv)
    expect(words.stdout).toContain(`${delivery.delivery_id}  analysis.failed  ${callId}  delivered`)

    const redelivered = await cliInProcess(["webhooks", "redeliver", webhookId!, delivery.delivery_id], tenantEnv)
    expect(redelivered.code, redelivered.stderr).toBe(0)
    expect(redelivered.stdout).toContain("(redeliver)")
    expect(received).toHaveLength(2)
    expect(received[1].headers["webhook-id"]).toBe(delivery.delivery_id)

    const removed = await cliInProcess(["webhooks", "remove", webhookId!], tenantEnv)
    expect(removed.code, removed.stderr).toBe(0)
    expect(removed.stdout).toContain(`Removed ${webhookId}`)
    expect(JSON.parse((await cliInProcess(["webhooks", "list", "--json"], tenantEnv)).stdout).webhooks).toEqual([])
    const gone = await cliInProcess(["webhooks", "remove", webhookId!], tenantEnv)
    expect(gone.code).toBe(3)
    expect(gone.stderr).toContain("404")
  })

  it("a URL the service refuses is a usage error (exit 2)", async () => {
    const refused = await cliInProcess(["webhooks", "add", "http://example.com/hook"], tenantEnv)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("url: must be https")
    const noKey = await cliInProcess(["webhooks", "list"], { CALLSIGHT_URL: server.url })
    expect(noKey.code).toBe(2)
  })
})
