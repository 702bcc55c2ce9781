/**
 * A client that sends its request too slowly, or not at all, is cut off with 408 by
 * `callsight serve` (HTTP_HEADERS_TIMEOUT_SECONDS, HTTP_REQUEST_TIMEOUT_SECONDS): a slow or idle
 * client cannot hold a connection open forever.
 */
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "./utils/Server.js"

let server: RunningServer

beforeAll(async () => {
  server = await startServer({
    env: { HTTP_HEADERS_TIMEOUT_SECONDS: "2", HTTP_REQUEST_TIMEOUT_SECONDS: "3", HTTP_IDLE_TIMEOUT_SECONDS: "30" }
  })
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

/** Sends `text` on a new connection and answers what comes back until the server closes it, and when. */
const sendAndWait = async (text: string, waitAtMostMs: number) => {
  const { hostname, port } = new URL(server.url)
  const socket = net.connect(Number(port), hostname)
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
  const started = Date.now()
  let answer = ""
  socket.on("data", (chunk) => (answer += chunk.toString()))
  socket.write(text)
  const closed = await Promise.race([
    new Promise<boolean>((resolve) => socket.once("close", () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitAtMostMs))
  ])
  socket.destroy()
  return { closed, answer, afterMs: Date.now() - started }
}

describe("slow clients", () => {
  it("headers that never finish are answered 408 and the connection closed", async () => {
    const { afterMs, answer, closed } = await sendAndWait(`POST /v1/client-auth/login HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n`, 10_000)
    expect(closed).toBe(true)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(afterMs).toBeGreaterThanOrEqual(1_500)
    expect(afterMs).toBeLessThan(6_000)
  }, 20_000)

  it("a body that stops arriving is answered 408 once the request timeout passes", async () => {
    const head = [
      "POST /v1/client-auth/login HTTP/1.1",
      `Host: ${new URL(server.url).host}`,
      "Content-Type: application/json",
      "Content-Length: 100",
      "",
      ""
    ].join("\r\n")
    const { afterMs, answer, closed } = await sendAndWait(`${head}{"email": "a`, 10_000)
    expect(closed).toBe(true)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(afterMs).toBeGreaterThanOrEqual(2_500)
    expect(afterMs).toBeLessThan(7_000)
  }, 20_000)
})
