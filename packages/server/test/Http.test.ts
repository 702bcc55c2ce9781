/**
 * The HTTP service end to end in-process: probes, validation (422), the `/reporting` alias,
 * credentials, the admin extensions and the 501 of unbuilt operations, through the client derived
 * from the declaration and through raw HTTP where the wire form is the point.
 */
import { CallsightApi, ClientId, CreateClientRequest } from "@callsight/api-spec"
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ADMIN_KEY, ASSISTANT_KEY, testServerLayer } from "./utils/TestServer.js"

const admin = { "x-api-key": ADMIN_KEY }

const getJson = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
    return { status: response.status, body: (yield* response.json) as any, headers: response.headers }
  })

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const request = yield* HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyJson(body)
    )
    const response = yield* client.execute(request)
    return { status: response.status, body: (yield* response.json) as any }
  })

const createTenant = (body: Partial<ConstructorParameters<typeof CreateClientRequest>[0]>) =>
  Effect.flatMap(HttpApiClient.make(CallsightApi), (api) =>
    api.extensions.createClient({ headers: admin, payload: CreateClientRequest.make({ company_name: "Acme", ...body }) })
  )

it.layer(testServerLayer())("the HTTP service", (it) => {
  describe("probes", () => {
    it.effect("/health reports ok with the database connected", () =>
      Effect.gen(function* () {
        const api = yield* HttpApiClient.make(CallsightApi)
        const health = yield* api.probes.health()
        expect(health.status).toBe("ok")
        expect(health.version).toMatch(/^\d+\.\d+\.\d+/)
        expect(health.database.connected).toBe(true)
        expect(health.database.error).toBeNull()
        expect(health.database.latency_ms).toBeGreaterThanOrEqual(0)
        expect(["postgres", "pglite"]).toContain(health.database.backend)
        expect(health.database.backend).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite")
      }))

    it.effect("/ready is 200 once migrations ran", () =>
      Effect.gen(function* () {
        const { status, body } = yield* getJson("/ready")
        expect(status).toBe(200)
        expect(body).toEqual({ status: "ready", database: "ok", migrations: "ok" })
      }))

    it.effect("/health/db reports the pool, connections by state, the cap of 200 and the headroom", () =>
      Effect.gen(function* () {
        const api = yield* HttpApiClient.make(CallsightApi)
        const db = yield* api.probes.dbHealth()
        expect(db.cap).toBe(200)
        expect(db.connections.total).toBeGreaterThanOrEqual(1)
        expect(db.connections.total).toBe(
          db.connections.active + db.connections.idle + db.connections.idle_in_transaction + db.connections.other
        )
        expect(db.headroom).toBe(200 - db.connections.total)
        expect(db.pool.size).toBe(db.pool.idle + db.pool.busy)
        expect(db.pool.size).toBeLessThanOrEqual(db.pool.max)
        expect(db.pool.acquisitions).toBeGreaterThan(0)
        expect(db.pool.avg_acquire_wait_ms).toBeGreaterThanOrEqual(0)
        expect(db.status).toBe("ok")
      }))

    it.effect("/metrics counts requests per route pattern with status classes and percentiles", () =>
      Effect.gen(function* () {
        const before = (yield* getJson("/metrics")).body
        const routeBefore = before.routes.find((r: any) => r.route === "GET /analysis/{call_id}")
        yield* getJson("/analysis/call_a", { "x-api-key": "nope" }) // 401
        yield* getJson("/analysis/call_b", { "x-api-key": "nope" }) // 401
        yield* getJson("/health")
        const { status, body } = yield* getJson("/metrics")
        expect(status).toBe(200)
        const route = body.routes.find((r: any) => r.route === "GET /analysis/{call_id}")
        expect(route.count).toBe((routeBefore?.count ?? 0) + 2)
        expect(route.status_4xx).toBe((routeBefore?.status_4xx ?? 0) + 2)
        expect(route.error_rate_4xx).toBe(route.status_4xx / route.count)
        expect(route.latency_ms.p50).toBeLessThanOrEqual(route.latency_ms.p90)
        expect(route.latency_ms.p90).toBeLessThanOrEqual(route.latency_ms.p99)
        expect(body.routes.some((r: any) => /call_a/.test(r.route))).toBe(false)
        expect(body.total.count).toBe(body.routes.reduce((n: number, r: any) => n + r.count, 0))
        expect(body.routes.find((r: any) => r.route === "GET /metrics").count).toBeGreaterThanOrEqual(1)
      }))

    it.effect("a path no operation serves is a JSON 404, counted and logged as the 404 it is", () =>
      Effect.gen(function* () {
        const before = (yield* getJson("/metrics")).body.routes.find((r: any) => r.route === "GET (unmatched)")
        const { status, body } = yield* getJson("/no/such/page?x=1")
        expect(status).toBe(404)
        expect(body).toEqual({ _tag: "NotFound", message: "no operation GET /no/such/page: see /docs" })
        const after = (yield* getJson("/metrics")).body.routes.find((r: any) => r.route === "GET (unmatched)")
        expect(after.status_4xx).toBe((before?.status_4xx ?? 0) + 1)
        expect(after.status_5xx).toBe(before?.status_5xx ?? 0)
      }))

    it.effect("GET / is a page saying what this is, with links to the reference and the probes", () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const response = yield* client.get("/")
        expect(response.status).toBe(200)
        expect(response.headers["content-type"]).toContain("text/html")
        const html = yield* response.text
        expect(html).toContain("Sales-call intelligence")
        for (const href of ["/docs", "/openapi.json", "/health", "/ready", "/metrics", "/health/db"]) {
          expect(html).toContain(`href="${href}"`)
        }
      }))

    it.effect("/metrics answers Prometheus text when asked for text/plain", () =>
      Effect.gen(function* () {
        yield* getJson("/health")
        const client = yield* HttpClient.HttpClient
        const response = yield* client.execute(
          HttpClientRequest.get("/metrics").pipe(HttpClientRequest.setHeader("accept", "text/plain"))
        )
        expect(response.headers["content-type"]).toContain("text/plain")
        const text = yield* response.text
        expect(text).toContain("# TYPE callsight_http_requests_total counter")
        expect(text).toMatch(/callsight_http_requests_total\{route="GET \/health",status="2xx"\} [1-9]\d*/)
        expect(text).toMatch(/callsight_http_request_duration_ms\{route="GET \/health",quantile="0.99"\} [\d.]+/)
      }))
  })

  describe("validation is 422 with a detail body", () => {
    it.effect("a value out of bounds names the query parameter", () =>
      Effect.gen(function* () {
        const { status, body } = yield* getJson("/v1/internal/admin/recall-alerts?limit=201", admin)
        expect(status).toBe(422)
        expect(body._tag).toBe("ValidationFailed")
        expect(body.detail).toHaveLength(1)
        expect(body.detail[0].loc).toEqual(["query", "limit"])
        expect(body.detail[0].type).toBe("value_error")
        expect(body.detail[0].msg).toMatch(/200/)
      }))

    it.effect("a wrong type names the query parameter", () =>
      Effect.gen(function* () {
        const { status, body } = yield* getJson("/v1/internal/admin/market-intel/lead-sources?periods=many", admin)
        expect(status).toBe(422)
        expect(body.detail[0].loc).toEqual(["query", "periods"])
      }))

    it.effect("a missing X-API-Key is not a validation failure: 401, which says what to send (Credentials.test.ts)", () =>
      Effect.gen(function* () {
        const { status, body, headers } = yield* getJson("/v1/internal/admin/status")
        expect(status).toBe(401)
        expect(body).toEqual({
          _tag: "Unauthorized",
          message: "missing credentials: send the admin key (ADMIN_API_KEY) in the X-API-Key header"
        })
        expect(headers["www-authenticate"]).toBe(`ApiKey realm="callsight", header="X-API-Key"`)
      }))

    it.effect("a bad body field names the body field", () =>
      Effect.gen(function* () {
        const { status, body } = yield* postJson("/v1/internal/admin/clients", { company_name: "", credits: "x" }, admin)
        expect(status).toBe(422)
        const locs = body.detail.map((d: any) => d.loc.join("."))
        expect(locs).toContain("body.company_name")
      }))

    it.effect("a missing required query parameter is 422", () =>
      Effect.gen(function* () {
        const { status, body } = yield* getJson("/v1/internal/assistant/account-overview", { "x-api-key": ASSISTANT_KEY })
        expect(status).toBe(422)
        expect(body.detail[0]).toMatchObject({ loc: ["query", "client_id"], type: "missing" })
      }))
  })

  describe("the /reporting prefix", () => {
    it.effect("answers the same operations as the root", () =>
      Effect.gen(function* () {
        const root = yield* getJson("/ready")
        const aliased = yield* getJson("/reporting/ready")
        expect(aliased).toMatchObject({ status: root.status, body: root.body })
        const created = yield* postJson("/reporting/v1/internal/admin/clients", { company_name: "Via Reporting" }, admin)
        expect(created.status).toBe(201)
        expect(created.body.client_id).toMatch(/^cli_/)
        const missing = yield* getJson("/reporting/v1/teams/audio-nothing-here")
        expect(missing.status).toBe(404)
      }))
  })

  describe("credentials", () => {
    it.effect("a wrong key is 401, a tenant key on an admin path 403, a staff key on a tenant path 403", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant({})
        const wrong = yield* getJson("/v1/internal/admin/status", { "x-api-key": "csk_not_a_key" })
        expect(wrong.status).toBe(401)
        expect(wrong.body._tag).toBe("Unauthorized")
        const tenantOnAdmin = yield* getJson("/v1/internal/admin/status", { "x-api-key": tenant.api_key })
        expect(tenantOnAdmin.status).toBe(403)
        expect(tenantOnAdmin.body._tag).toBe("Forbidden")
        const assistantOnAdmin = yield* getJson("/v1/internal/admin/status", { "x-api-key": ASSISTANT_KEY })
        expect(assistantOnAdmin.status).toBe(403)
        const staffOnTenant = yield* getJson("/analysis/call_x", admin)
        expect(staffOnTenant.status).toBe(403)
        const tenantOnAssistant = yield* getJson("/v1/internal/assistant/team-health?client_id=x", {
          "x-api-key": tenant.api_key
        })
        expect(tenantOnAssistant.status).toBe(403)
      }))

    it.effect("a valid tenant key passes its check and reaches the operation", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant({})
        const { status, body } = yield* getJson("/analysis/call_x", { "x-api-key": tenant.api_key })
        expect(status).toBe(404)
        expect(body).toEqual({ _tag: "NotFound", message: "no call call_x" })
      }))
  })

  describe("admin extensions", () => {
    it.effect("create a tenant with its owner, a key shown once and initial credits", () =>
      Effect.gen(function* () {
        const created = yield* createTenant({ company_name: "Globex", owner_email: "Owner@Globex.test", credits: 5, plan: "growth" })
        expect(created.client_id).toMatch(/^cli_[0-9a-f]{20}$/)
        expect(created.owner_user_id).toMatch(/^usr_/)
        expect(created.api_key).toMatch(/^csk_[A-Za-z0-9_-]{43}$/)
        expect(created.plan).toBe("growth")
        expect(created.credits_balance).toBe(5)
        expect(created.company_name).toBe("Globex")
        expect(Date.parse(created.created_at)).not.toBeNaN()
      }))

    it.effect("an owner e-mail that has an account is 409, whatever its case", () =>
      Effect.gen(function* () {
        yield* createTenant({ owner_email: "dup@acme.test" })
        const error = yield* Effect.flip(createTenant({ owner_email: "DUP@acme.test" }))
        expect(error._tag).toBe("Conflict")
      }))

    it.effect("grant credits adds to the ledger and answers the balance", () =>
      Effect.gen(function* () {
        const api = yield* HttpApiClient.make(CallsightApi)
        const tenant = yield* createTenant({ credits: 3 })
        const grant = (amount: number) =>
          api.extensions.grantCredits({
            headers: admin,
            path: { client_id: tenant.client_id },
            payload: { amount, reason: "test" }
          })
        expect(yield* grant(7)).toEqual({ client_id: tenant.client_id, balance: 10 })
        expect(yield* grant(-4)).toEqual({ client_id: tenant.client_id, balance: 6 })
        const below = yield* Effect.flip(grant(-7))
        expect(below._tag).toBe("Conflict")
        expect(yield* grant(1)).toEqual({ client_id: tenant.client_id, balance: 7 })
      }))

    it.effect("credits for an unknown tenant are 404", () =>
      Effect.gen(function* () {
        const api = yield* HttpApiClient.make(CallsightApi)
        const error = yield* Effect.flip(
          api.extensions.grantCredits({ headers: admin, path: { client_id: ClientId.make("cli_nope") }, payload: { amount: 1, reason: "x" } })
        )
        expect(error._tag).toBe("NotFound")
      }))

    it.effect("concurrent grants all land", () =>
      Effect.gen(function* () {
        const api = yield* HttpApiClient.make(CallsightApi)
        const tenant = yield* createTenant({})
        yield* Effect.forEach(
          Array.from({ length: 10 }, (_, i) => i),
          () =>
            api.extensions.grantCredits({
              headers: admin,
              path: { client_id: tenant.client_id },
              payload: { amount: 2, reason: "batch" }
            }),
          { concurrency: "unbounded" }
        )
        const last = yield* api.extensions.grantCredits({
          headers: admin,
          path: { client_id: tenant.client_id },
          payload: { amount: 1, reason: "last" }
        })
        expect(last.balance).toBe(21)
      }))
  })

  describe("runtime flags", () => {
    it.effect("a tenant's flags are saved whole, unknown keys kept, known ones validated", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant({})
        const client = yield* HttpClient.HttpClient
        const put = (clientId: string, body: unknown) =>
          Effect.flatMap(
            HttpClientRequest.put(`/v1/internal/admin/settings/runtime-flags/${clientId}`).pipe(
              HttpClientRequest.setHeaders(admin),
              HttpClientRequest.bodyJson(body)
            ),
            (request) => Effect.flatMap(client.execute(request), (r) => Effect.map(r.json, (body: any) => ({ status: r.status, body })))
          )
        const saved = yield* put(tenant.client_id, { transcriber: "deepgram", "beta.thing": 3 })
        expect(saved.status).toBe(200)
        expect(saved.body).toMatchObject({
          client_id: tenant.client_id,
          flags: { transcriber: "deepgram", "beta.thing": 3 },
          unknown_keys: ["beta.thing"]
        })
        const bad = yield* put(tenant.client_id, { transcriber: "whisper-from-mars", "report.include_transcript": "yes" })
        expect(bad.status).toBe(422)
        expect(bad.body.detail.map((d: any) => d.loc.join("."))).toEqual(["body.transcriber", "body.report.include_transcript"])
        const read = yield* getJson(`/v1/internal/admin/settings/runtime-flags?client_id=${tenant.client_id}`, admin)
        expect(read.body.tenants).toEqual([saved.body])
        expect(read.body.known_flags.map((f: any) => f.key)).toContain("transcriber")
        expect((yield* put("cli_nope", {})).status).toBe(404)
        expect((yield* getJson("/v1/internal/admin/settings/runtime-flags?client_id=cli_nope", admin)).status).toBe(404)
        expect((yield* getJson("/v1/internal/admin/settings/runtime-flags", { "x-api-key": tenant.api_key })).status).toBe(403)
      }))
  })

  describe("operations not built yet", () => {
    it.effect("answer 501 NotImplemented, never a made-up answer", () =>
      Effect.gen(function* () {
        // the caller is checked first: the portal's operations need a session before anything else
        const portal = yield* getJson("/v1/client-portal/daily-brief")
        expect(portal.status).toBe(401)
        // (each pending operation's 501 is checked in Pending.test.ts; the assistant's, built, in Assistant.test.ts)
      }))
  })

  describe("OpenAPI and docs", () => {
    it.effect("/openapi.json is OpenAPI 3.1 with the 422 body and without the platform's 400", () =>
      Effect.gen(function* () {
        const { status, body } = yield* getJson("/openapi.json")
        expect(status).toBe(200)
        expect(body.openapi).toBe("3.1.0")
        expect(body.info.version).toBe("1.0.0")
        const op = body.paths["/v1/internal/admin/recall-alerts"].get
        expect(op.responses["422"]).toBeDefined()
        expect(op.responses["400"]).toBeUndefined()
        const limit = op.parameters.find((p: any) => p.name === "limit")
        expect(limit).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 200, default: 50 } })
      }))

    it.effect("/docs renders the reference page without external scripts", () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const response = yield* client.get("/docs")
        expect(response.status).toBe(200)
        expect(response.headers["content-type"]).toContain("text/html")
        const html = yield* response.text
        expect(html).toContain("Callsight")
        expect(html).not.toMatch(/<script[^>]+src="https?:/)
        // the introduction: what the service does, the credentials, the audio flow
        for (const heading of ["## Credentials", "## Analysing a call (tenant key)", "## Credits", "## Errors"]) {
          expect(html).toContain(heading)
        }
      }))
  })
})
