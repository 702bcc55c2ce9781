/**
 * Logs a developer can read (Observability.ts, http/Middleware.ts, audio/Worker.ts), on the real
 * server with its workers, every log line kept (logfmt, TestServer's `logs`):
 * - one line when an analysis starts and one when it completes or fails, with the call, the tenant,
 *   the duration and the credits it took;
 * - the request line names the route of pages, `/docs`, `/openapi.json` and `/mcp`, not only of the
 *   declared operations; an unknown path stays `GET (unmatched)`;
 * - `shutting down` when the server is asked to stop, `stopped` once everything has closed;
 * - the lines for people (`LOG_FORMAT=pretty`, the default on a terminal) and JSON otherwise;
 * - one version everywhere: `/health`'s `version` (the software's) and `api_version` (the
 *   interface's, the OpenAPI `info.version`), both named on `/docs`;
 * - no key, token or cookie in any of it.
 */
import { API_VERSION, VERSION, VERSIONS_LINE } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Logger, LogLevel, Scope } from "effect"
import { AppConfig, defaultLogFormat } from "../src/config.js"
import { prettyLine, withShutdownLines } from "../src/Observability.js"
import { createTenant, get, settle, upload } from "./utils/AudioRequests.js"
import { fixture, wavOf, wavSamples } from "../../../test/utils/Fixtures.js"
import { ADMIN_KEY, testServerLayer } from "./utils/TestServer.js"

/** A logfmt line as its fields (`message`, `level`, and the annotations), values unquoted. */
const fieldsOf = (line: string): Record<string, string> => {
  const fields: Record<string, string> = {}
  for (const [, key, value] of line.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    fields[key!] = value!.startsWith("\"") ? JSON.parse(value!) : value!
  }
  return fields
}

/** The lines whose message is `message`, as fields. */
const linesOf = (logs: ReadonlyArray<string>, message: string) => logs.map(fieldsOf).filter((f) => f.message === message)

const logs: Array<string> = []

describe("logs", () => {
  layer(testServerLayer({ workerConcurrency: 1 }, { workers: true, logs }), { excludeTestServices: true, timeout: 120_000 })(
    "the server's lines",
    (it) => {
      it.effect("an analysis logs its start and its completion: the call, the tenant, the duration, 1 credit", () =>
        Effect.gen(function* () {
          const tenant = yield* createTenant(3)
          const before = Date.now()
          const { status, body } = yield* upload(tenant.api_key, fixture("discovery-short.mp3"), { name: "call.mp3" })
          expect(status).toBe(202)
          const done = yield* settle(tenant.api_key, body.call_id)
          const elapsed = Date.now() - before
          expect(done.status).toBe("completed")

          const started = linesOf(logs, "analysis started").filter((f) => f.call_id === body.call_id)
          expect(started).toEqual([
            expect.objectContaining({ level: "INFO", client_id: tenant.client_id, attempt: "1", format: "mp3", source: "api" })
          ])
          const completed = linesOf(logs, "analysis completed").filter((f) => f.call_id === body.call_id)
          expect(completed).toEqual([expect.objectContaining({ level: "INFO", client_id: tenant.client_id, credits: "1" })])
          const duration = Number(completed[0]!.duration_ms)
          expect(Number.isInteger(duration)).toBe(true)
          expect(duration).toBeGreaterThan(0)
          expect(duration).toBeLessThanOrEqual(elapsed)
          expect(done.credits_charged).toBe(1)
          // started, then completed, and no failure
          const index = (message: string) => logs.findIndex((l) => l.includes(`message="${message}"`) && l.includes(body.call_id))
          expect(index("analysis started")).toBeLessThan(index("analysis completed"))
          expect(linesOf(logs, "analysis failed").filter((f) => f.call_id === body.call_id)).toEqual([])
        }))

      it.effect("an analysis that fails logs a warning with its error, the tenant, the duration and 0 credits", () =>
        Effect.gen(function* () {
          const tenant = yield* createTenant(3)
          const oneSecond = wavOf(wavSamples("discovery-short.wav").subarray(16_000, 32_000))
          const { body } = yield* upload(tenant.api_key, oneSecond, { name: "short.wav" })
          const failed = yield* settle(tenant.api_key, body.call_id)
          expect(failed.error.code).toBe("too_short")

          const lines = linesOf(logs, "analysis failed").filter((f) => f.call_id === body.call_id)
          expect(lines).toEqual([
            expect.objectContaining({
              level: "WARN",
              client_id: tenant.client_id,
              credits: "0",
              error_code: "too_short",
              error: failed.error.message
            })
          ])
          expect(Number(lines[0]!.duration_ms)).toBeGreaterThanOrEqual(0)
          expect(linesOf(logs, "analysis started").filter((f) => f.call_id === body.call_id)).toHaveLength(1)
          expect(linesOf(logs, "analysis completed").filter((f) => f.call_id === body.call_id)).toEqual([])
        }))

      it.effect("the request line names the route of pages, /docs, /openapi.json and /mcp; an unknown path is unmatched", () =>
        Effect.gen(function* () {
          const client = yield* HttpClient.HttpClient
          const tenant = yield* createTenant(1)
          const send = (method: "GET" | "POST" | "HEAD", path: string, headers: Record<string, string> = {}) =>
            Effect.gen(function* () {
              const request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeaders(headers))
              const response = yield* client.execute(method === "POST" ? HttpClientRequest.bodyUnsafeJson(request, {}) : request)
              yield* response.text
              return response.status
            })
          const cases: ReadonlyArray<readonly [method: "GET" | "POST" | "HEAD", path: string, route: string, headers?: Record<string, string>]> = [
            ["GET", "/", "GET /"],
            ["GET", "/sign-in?token=abc", "GET /sign-in"],
            ["GET", "/portal", "GET /portal"],
            ["GET", "/docs", "GET /docs"],
            ["HEAD", "/docs", "HEAD /docs"],
            ["GET", "/openapi.json", "GET /openapi.json"],
            ["POST", "/mcp", "POST /mcp"],
            ["GET", "/mcp", "GET /mcp", { "x-api-key": tenant.api_key }],
            ["GET", "/analysis/call_nope", "GET /analysis/{call_id}", { "x-api-key": tenant.api_key }],
            ["GET", "/no/such/page", "GET (unmatched)"]
          ]
          const named: Array<readonly [string, string, number]> = []
          for (const [method, path, route, headers] of cases) {
            const status = yield* send(method, path, headers)
            const line = linesOf(logs, "request").reverse().find((f) => f.method === method && f.path === path.split("?")[0])
            expect(line, `${method} ${path}`).toBeDefined()
            expect(Number(line!.status)).toBe(status)
            named.push([`${method} ${path}`, line!.route!, status])
            expect(line!.route, `${method} ${path}`).toBe(route)
          }
          expect(named.find(([request]) => request === "POST /mcp")![2]).toBe(401)
          expect(named.find(([request]) => request === "GET /mcp")![2]).toBe(405)
          expect(named.find(([request]) => request === "GET /no/such/page")![2]).toBe(404)
          // the metrics count by the same names
          const metrics = yield* get(tenant.api_key, "/metrics")
          const routes = (metrics.body.routes as Array<{ route: string }>).map((r) => r.route)
          expect(routes).toEqual(expect.arrayContaining(["GET /docs", "POST /mcp", "GET /sign-in", "GET (unmatched)"]))
        }))

      it.effect("/health answers the software's version and the interface's; /openapi.json and /docs name both", () =>
        Effect.gen(function* () {
          const tenant = yield* createTenant(1)
          const health = yield* get(tenant.api_key, "/health")
          expect(health.body).toMatchObject({ version: VERSION, api_version: API_VERSION })
          expect(API_VERSION).toBe("1.0.0") // fixed by the specification, §9
          expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/)
          expect(VERSIONS_LINE).toBe(`API ${API_VERSION} · Callsight ${VERSION}`)
          const openapi = yield* get(tenant.api_key, "/openapi.json")
          expect(openapi.body.info.version).toBe(API_VERSION)
          expect(openapi.body.info.description.split("\n")[0]).toBe(`**${VERSIONS_LINE}**`)
          expect(openapi.body.components.schemas?.HealthResponse?.required ?? openapi.body.paths["/health"].get.responses["200"].content["application/json"].schema.required)
            .toEqual(expect.arrayContaining(["version", "api_version"]))
          const docs = yield* get(tenant.api_key, "/docs")
          expect(docs.body).toContain(VERSIONS_LINE)
        }))

      it.effect("no line holds a key: not the admin's, not a tenant's (sent in X-API-Key and as a Bearer token)", () =>
        Effect.gen(function* () {
          const tenant = yield* createTenant(1)
          const client = yield* HttpClient.HttpClient
          yield* client.execute(HttpClientRequest.get("/v1/teams/calls").pipe(HttpClientRequest.bearerToken(tenant.api_key)))
          yield* client.execute(
            HttpClientRequest.post("/mcp").pipe(HttpClientRequest.setHeader("x-api-key", tenant.api_key), HttpClientRequest.bodyUnsafeJson({}))
          )
          yield* client.execute(HttpClientRequest.get("/portal").pipe(HttpClientRequest.setHeader("cookie", "callsight_session=not-a-session-123456")))
          expect(logs.length).toBeGreaterThan(0)
          const all = logs.join("\n")
          expect(all).not.toContain(ADMIN_KEY)
          expect(all).not.toContain(tenant.api_key)
          expect(all).not.toContain("not-a-session-123456")
        }))
    }
  )

  describe("shutdown", () => {
    it.live("says it is shutting down, closes the server (no more connections), then says it stopped", () =>
      Effect.gen(function* () {
        const lines: Array<string> = []
        const server = withShutdownLines("server", testServerLayer()).pipe(
          Layer.provide(Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void lines.push(line)))),
          Layer.provide(Logger.minimumLogLevel(LogLevel.Info))
        )
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(server, scope)
        const url = yield* Effect.map(Effect.provide(HttpServer.HttpServer, context), (s) =>
          s.address._tag === "TcpAddress" ? `http://127.0.0.1:${s.address.port}` : "")
        const health = yield* Effect.promise(() => fetch(`${url}/health`).then((r) => r.status))
        expect(health).toBe(200)
        expect(linesOf(lines, "shutting down")).toEqual([])

        yield* Scope.close(scope, Exit.void)
        const messages = lines.map(fieldsOf).map((f) => f.message)
        const down = messages.indexOf("shutting down")
        const stopped = messages.indexOf("stopped")
        expect(down).toBeGreaterThanOrEqual(0)
        expect(stopped).toBe(messages.length - 1)
        expect(down).toBeLessThan(stopped)
        expect(linesOf(lines, "shutting down")).toEqual([expect.objectContaining({ level: "INFO", process: "server" })])
        expect(Number(linesOf(lines, "stopped")[0]!.shutdown_ms)).toBeGreaterThanOrEqual(0)
        // by then the server no longer accepts connections
        const refused = yield* Effect.promise(() => fetch(`${url}/health`).then(() => false, () => true))
        expect(refused).toBe(true)
      }), 60_000)
  })

  describe("formats", () => {
    it("LOG_FORMAT defaults to pretty on a terminal and to JSON otherwise", () => {
      expect(defaultLogFormat(true)).toBe("pretty")
      expect(defaultLogFormat(false)).toBe("json")
    })

    it.effect("LOG_FORMAT unset follows stdout; set, it wins", () =>
      Effect.gen(function* () {
        const load = (env: Record<string, string>) =>
          Effect.provide(AppConfig, AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))
        expect((yield* load({})).logFormat).toBe(defaultLogFormat(process.stdout.isTTY === true))
        expect((yield* load({ LOG_FORMAT: "pretty" })).logFormat).toBe("pretty")
        expect((yield* load({ LOG_FORMAT: "json" })).logFormat).toBe("json")
      }))

    it.effect("a line for people: time, level, message, then the annotations (the call, the route, the status, the duration first)", () =>
      Effect.gen(function* () {
        const plain: Array<string> = []
        const coloured: Array<string> = []
        const entry = Effect.logWarning("analysis failed").pipe(
          Effect.annotateLogs({ call_id: "call_1", error: "too_short: the call is 1 s long", credits: 0, duration_ms: 12 })
        )
        yield* entry.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, Logger.map(prettyLine(false), (l) => void plain.push(l)))))
        yield* entry.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, Logger.map(prettyLine(true), (l) => void coloured.push(l)))))
        expect(plain).toHaveLength(1)
        expect(plain[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} /)
        expect(plain[0]!.slice(13)).toBe(
          "WARN  analysis failed call_id=call_1 duration_ms=12 credits=0 error=\"too_short: the call is 1 s long\""
        )
        expect(coloured[0]!.replace(/\u001b\[[0-9;]*m/g, "").slice(13)).toBe(plain[0]!.slice(13))
        expect(coloured[0]).toContain("\u001b[33mWARN ")
      }))
  })
})
