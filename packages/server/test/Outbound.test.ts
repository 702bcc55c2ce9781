/**
 * The outbound guard (lib/Outbound.ts), written as the attacks of issue 32: a tenant who names an
 * internal address, in any spelling, as an LLM base URL, a CRM login URL, a webhook endpoint, a
 * callback URL or an MCP download. A local server plays the internal target and must see no
 * request. Production refuses; development keeps loopback for local servers; OUTBOUND_ALLOW_HOSTS
 * and the operator's configured providers pass.
 */
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Context, Effect, Either, Layer, type Scope } from "effect"
import type { lookup } from "node:dns"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { hostRefusal, makeOutbound, type OutboundPolicy, policyOf, rangeOf } from "../src/lib/Outbound.js"
import { createTenant } from "./utils/AudioRequests.js"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"

interface Target {
  readonly port: number
  readonly url: string
  /** Every request that reached it. */
  readonly seen: Array<string>
}

/** A local HTTP server playing an internal host: it answers everything 200 with a body an attacker wants. */
const startTarget = (answer: (path: string) => { status: number; headers?: Record<string, string>; body: string } = () => ({
  status: 200,
  body: "internal-secret-body"
})): Effect.Effect<Target, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<Target & { readonly close: () => void }>((resume) => {
      const seen: Array<string> = []
      const server = createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`)
        const a = answer(req.url ?? "/")
        res.writeHead(a.status, { "content-type": "text/plain", ...a.headers }).end(a.body)
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        resume(Effect.succeed({ port, url: `http://127.0.0.1:${port}`, seen, close: () => server.close() }))
      })
    }),
    (t) => Effect.sync(t.close)
  )

const policyWith = (overrides: Partial<AppConfigShape>): Effect.Effect<OutboundPolicy> =>
  Effect.map(AppConfig, policyOf).pipe(Effect.provide(AppConfig.layerWith(overrides)))

/** The codes along an error's causes. */
const codes = (error: unknown): Array<string> => {
  const found: Array<string> = []
  let current: any = error
  for (let i = 0; i < 6 && current != null; i++) {
    if (typeof current.code === "string") found.push(current.code)
    current = current.cause
  }
  return found
}

/** GET `url` through the guard of `policy`: the status, or the error's codes. */
const getThrough = (policy: OutboundPolicy, url: string, follow = false) =>
  Effect.gen(function* () {
    const outbound = yield* makeOutbound(policy)
    const base = NodeHttpClient.makeUndici(outbound.dispatcher)
    const client = follow ? HttpClient.followRedirects(base, 3) : base
    return yield* client.get(url).pipe(
      Effect.flatMap((response) => Effect.as(response.text, response.status)),
      Effect.scoped,
      Effect.timeout("10 seconds"),
      Effect.either
    )
  }).pipe(Effect.scoped)

/** Every spelling of the loopback address at `port` that a URL can carry. */
const loopbackSpellings = (port: number) => [
  `http://127.0.0.1:${port}/`,
  `http://127.0.0.2:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f.1:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://017700000001:${port}/`,
  `http://127.1:${port}/`,
  `http://%31%32%37.0.0.1:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  `http://[::1]:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://0:${port}/`,
  `http://[::]:${port}/`,
  `http://localhost:${port}/`,
  `http://LocalHost.:${port}/`,
  `http://localhost..:${port}/`,
  `http://app.localhost:${port}/`
]

describe("address classification", () => {
  it.effect("refuses every internal range and spelling in production, allows public addresses", () =>
    Effect.gen(function* () {
      const production = yield* policyWith({ production: true })
      const refused = [
        "127.0.0.1", "10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
        "224.0.0.1", "255.255.255.255", "192.0.2.1", "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
        "ff02::1", "::ffff:7f00:1", "::ffff:a9fe:a9fe", "::ffff:10.0.0.5", "::7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::",
        "2001::1", "2001:db8::1", "[::1]", "localhost", "localhost.", "LOCALHOST", "foo.localhost", "metadata.google.internal",
        "printer.local", "nas.home.arpa", "box.localdomain", "metadata", "metadata."
      ]
      for (const host of refused) expect(hostRefusal(host, production), host).toBeDefined()
      for (const host of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "api.openai.com", "hooks.example.com."]) {
        expect(hostRefusal(host, production), host).toBeUndefined()
      }
      expect(rangeOf("::ffff:7f00:1")).toBe("loopback")
      expect(rangeOf("::7f00:1")).toBe("ipv4Compatible")
    }))

  it.effect("development keeps loopback and private networks for local servers, and refuses the rest", () =>
    Effect.gen(function* () {
      const development = yield* policyWith({ production: false })
      for (const host of ["127.0.0.1", "::1", "localhost", "10.0.0.5", "fd00::1", "devbox"]) expect(hostRefusal(host, development), host).toBeUndefined()
      for (const host of ["169.254.169.254", "0.0.0.0", "::", "224.0.0.1", "fe80::1", "::ffff:a9fe:a9fe"]) {
        expect(hostRefusal(host, development), host).toBeDefined()
      }
    }))

  it.effect("OUTBOUND_ALLOW_HOSTS allows named hosts, addresses and ranges, and nothing beside them", () =>
    Effect.gen(function* () {
      const policy = yield* policyWith({ production: true, outboundAllowHosts: ["crm.corp.internal", "10.20.0.0/16", "192.168.7.7", "fd00:1::/32"] })
      for (const host of ["crm.corp.internal", "CRM.corp.internal.", "10.20.1.2", "::ffff:10.20.1.2", "192.168.7.7", "fd00:1::5"]) {
        expect(hostRefusal(host, policy), host).toBeUndefined()
      }
      for (const host of ["crm.internal", "10.21.0.1", "192.168.7.8", "fd00:2::5", "127.0.0.1"]) expect(hostRefusal(host, policy), host).toBeDefined()
    }))
})

describe("the guarded client", () => {
  it.scoped("in production, no spelling of the loopback address reaches the target; allowed, the same request does", () =>
    Effect.gen(function* () {
      const target = yield* startTarget()
      const production = yield* policyWith({ production: true })
      for (const url of loopbackSpellings(target.port)) {
        const result = yield* getThrough(production, url)
        expect(Either.isLeft(result), url).toBe(true)
        if (Either.isLeft(result)) expect(codes(result.left), url).toContain("ERR_OUTBOUND_REFUSED")
      }
      expect(target.seen).toEqual([])
      // the same request where the guard allows it: the target answers (so the refusals above are the guard's)
      const allowed = yield* policyWith({ production: true, outboundAllowHosts: ["127.0.0.1"] })
      expect(yield* getThrough(allowed, `${target.url}/x`)).toEqual(Either.right(200))
      expect(yield* getThrough(yield* policyWith({ production: false }), `http://localhost:${target.port}/y`)).toEqual(Either.right(200))
      expect(target.seen).toEqual(["GET /x", "GET /y"])
    }))

  it.scoped("an operator's configured provider passes by its origin, and only that origin", () =>
    Effect.gen(function* () {
      const provider = yield* startTarget()
      const internal = yield* startTarget()
      const policy = yield* policyWith({ production: true, openaiBaseUrl: provider.url })
      expect(yield* getThrough(policy, `${provider.url}/v1/models`)).toEqual(Either.right(200))
      const other = yield* getThrough(policy, `${internal.url}/`)
      expect(Either.isLeft(other) && codes(other.left)).toContain("ERR_OUTBOUND_REFUSED")
      expect(internal.seen).toEqual([])
    }))

  it.scoped("a redirect to an internal address is refused like the first URL", () =>
    Effect.gen(function* () {
      const internal = yield* startTarget()
      const redirector = yield* startTarget(() => ({ status: 302, headers: { location: `${internal.url}/latest/meta-data` }, body: "" }))
      const policy = yield* policyWith({ production: true, openaiBaseUrl: redirector.url })
      const result = yield* getThrough(policy, `${redirector.url}/start`, true)
      expect(Either.isLeft(result) && codes(result.left)).toContain("ERR_OUTBOUND_REFUSED")
      expect(redirector.seen).toEqual(["GET /start"])
      expect(internal.seen).toEqual([])
    }))

  it.scoped("a name that resolves to a public address when checked and to loopback when connecting (DNS rebinding) is refused", () =>
    Effect.gen(function* () {
      const target = yield* startTarget()
      let lookups = 0
      // a resolver that answers differently each time, as a rebinding attacker's DNS server does
      const rebinding = ((_host: string, options: { all?: boolean }, callback: (...args: Array<unknown>) => void) => {
        const address = lookups++ === 0 ? "93.184.216.34" : "127.0.0.1"
        if (options.all === true) callback(null, [{ address, family: 4 }])
        else callback(null, address, 4)
      }) as unknown as typeof lookup
      const policy: OutboundPolicy = { ...(yield* policyWith({ production: true })), lookup: rebinding }
      const outbound = yield* makeOutbound(policy)
      const url = `http://rebind.attacker.example:${target.port}/`
      expect(Either.isRight(yield* Effect.either(outbound.check(url)))).toBe(true)
      const result = yield* getThrough(policy, url)
      expect(Either.isLeft(result) && codes(result.left)).toContain("ERR_OUTBOUND_REFUSED")
      expect(lookups).toBe(2)
      expect(target.seen).toEqual([])
    }))
})

class InternalTarget extends Context.Tag("test/InternalTarget")<InternalTarget, Target>() {}

/** A production server (mail through a local SMTP server) beside the internal target. */
const ProductionLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const target = yield* startTarget()
    return Layer.merge(serverWithSmtp({ production: true }), Layer.succeed(InternalTarget, target))
  })
)

/** Internal URLs as a tenant would write them, each refused in production. */
const internalUrls = (port: number) => [
  ...loopbackSpellings(port),
  "https://169.254.169.254/latest/meta-data/",
  "https://[::ffff:a9fe:a9fe]/latest/meta-data/",
  "https://10.0.0.5/hook",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://0.0.0.0/hook",
  "https://[::1]/hook",
  "https://localhost./hook",
  "https://[fd00::1]/hook"
]

const expect422On = (reply: { status: number; body: any }, loc: ReadonlyArray<string | number>, what: string) => {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(422)
  expect(reply.body.detail[0].loc, what).toEqual(loc)
  expect(JSON.stringify(reply.body), what).not.toContain("internal-secret-body")
}

describe("tenant-supplied URLs in production", () => {
  layer(ProductionLayer, { excludeTestServices: true, timeout: 120_000 })("a production server", (it) => {
    it.effect("an LLM base URL pointing inward is a 422 on base_url and the target sees no request", () =>
      Effect.gen(function* () {
        const target = yield* InternalTarget
        const { session } = yield* newTenant()
        for (const url of internalUrls(target.port)) {
          for (const base_url of [url, `${url}?x=`]) {
            const reply = yield* call("PUT", "/v1/client-portal/integrations/llm", {
              session,
              body: { provider: "openai-compatible", api_key: "sk-attacker-0000", base_url }
            })
            expect422On(reply, ["body", "base_url"], base_url)
          }
        }
        // a query swallows the suffix the service appends: refused on any host
        const query = yield* call("PUT", "/v1/client-portal/integrations/llm", {
          session,
          body: { provider: "openai-compatible", api_key: "sk-attacker-0000", base_url: "https://93.184.216.34/v1?x=" }
        })
        expect422On(query, ["body", "base_url"], "query")
        expect(query.body.detail[0].msg).toMatch(/query/)
        expect(target.seen).toEqual([])
      }))

    it.effect("a CRM login URL pointing inward is a 422 on credentials.login_url and the target sees no request", () =>
      Effect.gen(function* () {
        const target = yield* InternalTarget
        const { session } = yield* newTenant()
        for (const login_url of internalUrls(target.port)) {
          const reply = yield* call("POST", "/v1/client-portal/crm/connect", {
            session,
            body: { provider: "salesforce", credentials: { client_id: "attacker", client_secret: "s3cret-attacker", login_url } }
          })
          expect422On(reply, ["body", "credentials", "login_url"], login_url)
        }
        expect(target.seen).toEqual([])
      }))

    it.effect("webhook endpoints and callback URLs pointing inward are 422s naming the field; a public one is taken", () =>
      Effect.gen(function* () {
        const target = yield* InternalTarget
        const tenant = yield* createTenant(5)
        const key = { "x-api-key": tenant.api_key }
        for (const url of internalUrls(target.port).map((u) => u.replace(/^http:/, "https:"))) {
          const reply = yield* call("POST", "/v1/teams/webhooks", { headers: key, body: { url } })
          expect422On(reply, ["body", "url"], url)
          const client = yield* HttpClient.HttpClient
          const form = new FormData()
          form.append("audio", new Blob([new Uint8Array(64)]), "call.wav")
          form.append("callback_url", url)
          const upload = yield* client.execute(
            HttpClientRequest.post("/v1/teams/audio").pipe(HttpClientRequest.setHeaders(key), HttpClientRequest.bodyFormData(form))
          ).pipe(Effect.flatMap((r) => Effect.map(r.json, (body) => ({ status: r.status, body: body as any }))), Effect.orDie)
          expect422On(upload, ["body", "callback_url"], `callback ${url}`)
        }
        const list = yield* call("GET", "/v1/teams/webhooks", { headers: key })
        expect(list.body.webhooks).toEqual([])
        const publicOne = yield* call("POST", "/v1/teams/webhooks", { headers: key, body: { url: "https://93.184.216.34/hook" } })
        expect(publicOne.status).toBe(201)
        expect(target.seen).toEqual([])
      }))

    it.effect("MCP upload_audio refuses an internal URL in every spelling; nothing is downloaded and no call is made", () =>
      Effect.gen(function* () {
        const target = yield* InternalTarget
        const tenant = yield* createTenant(5)
        const server = yield* HttpServer.HttpServer
        const address = server.address
        if (address._tag !== "TcpAddress") throw new Error("not TCP")
        const base = `http://127.0.0.1:${address.port}`
        const results = yield* Effect.promise(async () => {
          const client = new Client({ name: "attacker", version: "0.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers: { "x-api-key": tenant.api_key } } }))
          try {
            const out: Array<[string, CallToolResult]> = []
            for (const url of internalUrls(target.port)) {
              out.push([url, await client.callTool({ name: "upload_audio", arguments: { url: `${url}call.mp3` } }) as CallToolResult])
            }
            return out
          } finally {
            await client.close().catch(() => undefined)
          }
        })
        for (const [url, result] of results) {
          expect(result.isError, url).toBe(true)
          expect((result.content[0] as { text: string }).text, url).toMatch(/url |internal|single-label|give a public URL/)
        }
        expect(target.seen).toEqual([])
        const calls = yield* call("GET", "/v1/teams/calls", { headers: { "x-api-key": tenant.api_key } })
        expect(calls.status).toBe(200)
        expect(calls.body.calls).toEqual([])
      }), { timeout: 120_000 })
  })
})
