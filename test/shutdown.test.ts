/**
 * Graceful shutdown of `callsight serve` on SIGTERM: new connections are refused, a request in
 * flight (its body still arriving) is finished and answered, then the process exits 0; its log
 * says `shutting down` at the signal and `stopped` as its last line, the request answered between.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as net from "node:net"
import { type RunningServer, startServer } from "./utils/Server.js"

let server: RunningServer

beforeAll(async () => {
  server = await startServer()
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("SIGTERM", () => {
  it("finishes the request in flight, refuses new ones, and exits 0", async () => {
    const { hostname, port } = new URL(server.url)
    const body = JSON.stringify({ company_name: "Shutdown Inc", credits: 3 })
    const socket = net.connect(Number(port), hostname)
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    let answer = ""
    socket.on("data", (chunk) => (answer += chunk.toString()))
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()))

    // Headers and half of the body: the request is in flight when the signal arrives.
    socket.write(
      "POST /v1/internal/admin/clients HTTP/1.1\r\n" +
        `Host: ${hostname}:${port}\r\n` +
        `X-API-Key: ${server.adminKey}\r\n` +
        "Content-Type: application/json\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body.slice(0, 10)
    )
    await sleep(300)
    process.kill(server.pid, "SIGTERM")
    await sleep(500)

    const refused = await fetch(`${server.url}/health`).then(() => false, () => true)
    expect(refused).toBe(true)

    socket.write(body.slice(10))
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 201 /)
    const json = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))
    expect(json.client_id).toMatch(/^cli_/)
    expect(json.credits_balance).toBe(3)

    expect(await server.exited).toEqual({ code: 0, signal: null })

    // the log (JSON lines): shutting down at the signal, the request in flight answered, then stopped, last
    const entries = server.output().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
    const messages = entries.map((entry) => entry.message)
    const down = messages.indexOf("shutting down")
    const answered = entries.findIndex((e) => e.message === "request" && e.annotations.route === "POST /v1/internal/admin/clients")
    expect(down).toBeGreaterThan(-1)
    expect(answered).toBeGreaterThan(down)
    expect(messages.at(-1)).toBe("stopped")
    expect(entries[down].annotations).toEqual({ process: "server" })
    expect(entries.at(-1).annotations).toMatchObject({ process: "server", shutdown_ms: expect.any(Number) })
    expect(entries.at(-1).logLevel).toBe("INFO")
  }, 60_000)
})
