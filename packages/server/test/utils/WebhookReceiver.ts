/**
 * A webhook receiver on a local port (node:http), as a tenant would run one: it keeps every request
 * it gets (headers and raw body) and answers each with the status its `respond` decides, so a test
 * can make it fail a few times before it accepts.
 */
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export interface ReceivedRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** The status answered. */
  readonly status: number
}

export interface Receiver {
  readonly url: string
  readonly received: Array<ReceivedRequest>
  /** The requests answered 2xx. */
  readonly accepted: () => Array<ReceivedRequest>
  /** Waits until `count` requests (all, or only those on `path`) have come. */
  readonly waitFor: (count: number, options?: { readonly accepted?: boolean; readonly timeoutMs?: number }) => Effect.Effect<Array<ReceivedRequest>, Error>
}

/** Starts a receiver for the scope; `respond` gets the request's number (from 1) and decides the status. */
export const startReceiver = (respond: (n: number, request: { readonly body: string }) => number = () => 204) => {
  const received: Array<ReceivedRequest> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const status = respond(received.length + 1, { body })
      received.push({ path: req.url ?? "/", headers: req.headers, body, status })
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "not now")
    })
  })
  const accepted = () => received.filter((r) => r.status >= 200 && r.status < 300)
  const listen = Effect.async<Receiver>((resume) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({
        url: `http://127.0.0.1:${port}`,
        received,
        accepted,
        waitFor: (count, options = {}) =>
          Effect.gen(function* () {
            for (;;) {
              const list = options.accepted === true ? accepted() : received
              if (list.length >= count) return [...list]
              yield* Effect.sleep("50 millis")
            }
          }).pipe(
            Effect.timeoutFail({
              duration: options.timeoutMs ?? 60_000,
              onTimeout: () => new Error(`the receiver got ${received.length} requests, not ${count}`)
            })
          )
      }))
    })
  })
  const close = Effect.async<void>((resume) => {
    server.closeAllConnections()
    server.close(() => resume(Effect.void))
  })
  return Effect.acquireRelease(listen, () => close)
}
