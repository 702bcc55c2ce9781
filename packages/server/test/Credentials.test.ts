/**
 * Missing credentials are authentication, not validation (docs/decisions.md, "Keys"): every
 * operation that declares a security scheme answers a request without its credential with 401
 * `Unauthorized`, a message saying what to send, and a `WWW-Authenticate` challenge naming the
 * scheme: `ApiKey` with the header's name for the keys, `Cookie` with the cookie's name and the
 * sign-in page for the portal's session. Swept over the served OpenAPI document, so an operation
 * added later is checked too. A bad key keeps its answer (401 "invalid API key", now challenged),
 * a key of the wrong kind its 403; `POST /mcp` keeps its own `Bearer` challenge; neither the key
 * nor the session token ever reaches an answer or a log line.
 */
import { describe, expect, layer } from "@effect/vitest"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { createTenant } from "./utils/AudioRequests.js"
import { call } from "./utils/PortalRequests.js"
import { ADMIN_KEY, testServerLayer } from "./utils/TestServer.js"

const KEY_CHALLENGE = `ApiKey realm="callsight", header="X-API-Key"`
const SESSION_CHALLENGE = `Cookie realm="callsight", cookie-name="callsight_session", form-action="/sign-in"`

const MISSING = {
  adminKey: "missing credentials: send the admin key (ADMIN_API_KEY) in the X-API-Key header",
  assistantKey: "missing credentials: send the assistant key (ASSISTANT_API_KEY) or the admin key in the X-API-Key header",
  tenantKey: "missing credentials: send your API key in the X-API-Key header",
  session: "missing credentials: sign in at /sign-in (this operation needs the callsight_session cookie the sign-in sets)",
  either: "missing credentials: send your API key in the X-API-Key header, " +
    "or open this link in a browser signed in to the portal (/sign-in)"
} as const

interface Operation {
  readonly key: string
  readonly method: string
  readonly path: string
  readonly schemes: ReadonlyArray<string>
  readonly body: "json" | "multipart" | undefined
}

/** Every operation of the served document with a security requirement, its schemes and its body kind. */
const securedOperations = (document: any): Array<Operation> =>
  Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item)
      .filter(([method, op]: [string, any]) => ["get", "post", "put", "patch", "delete"].includes(method) && (op.security ?? []).length > 0)
      .map(([method, op]: [string, any]) => {
        const content = op.requestBody?.content ?? {}
        return {
          key: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path: path.replace(/\{(\w+)\}/g, (_, name) => `${name}_x`),
          schemes: op.security.flatMap((requirement: object) => Object.keys(requirement)),
          body: "application/json" in content ? "json" : "multipart/form-data" in content ? "multipart" : undefined
        } satisfies Operation
      })
  )

/** The request of an operation without credentials, with a body that passes the request guard. */
const send = (op: Operation, headers: Record<string, string> = {}, prefix = "") =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(op.method as "GET")(`${prefix}${op.path}`).pipe(HttpClientRequest.setHeaders(headers))
    if (op.body === "json") request = HttpClientRequest.bodyUnsafeJson(request, {})
    if (op.body === "multipart") {
      const form = new FormData()
      form.append("audio", new Blob([new Uint8Array(64)]), "call.wav")
      request = HttpClientRequest.bodyFormData(request, form)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    return { status: response.status, body: JSON.parse(text), headers: response.headers }
  }).pipe(Effect.orDie)

/** What a request without credentials must be answered: the message and challenge of its schemes. */
const expected = (schemes: ReadonlyArray<string>) => {
  const keyed = schemes.some((s) => s !== "session")
  const session = schemes.includes("session")
  const message = keyed && session ? MISSING.either : MISSING[schemes[0] as keyof typeof MISSING]
  const challenge = [keyed ? KEY_CHALLENGE : [], session ? SESSION_CHALLENGE : []].flat().join(", ")
  return { message, challenge }
}

const logs: Array<string> = []

describe("missing credentials are 401 with the scheme named", () => {
  layer(testServerLayer({}, { logs }), { excludeTestServices: true })("every secured operation", (it) => {
    it.effect("without its key or session, each answers 401, says what to send and challenges with its scheme", () =>
      Effect.gen(function* () {
        const document = (yield* call("GET", "/openapi.json")).body
        const operations = securedOperations(document)
        // the four schemes and the report's two doors are all there
        const kinds = new Set(operations.map((op) => op.schemes.join("+")))
        expect([...kinds].sort()).toEqual(["adminKey", "assistantKey", "session", "tenantKey", "tenantKey+session"])
        expect(operations.length).toBeGreaterThan(100)
        const seen: Array<string> = []
        for (const op of operations) {
          const reply = yield* send(op)
          const { challenge, message } = expected(op.schemes)
          expect({ op: op.key, status: reply.status, body: reply.body, challenge: reply.headers["www-authenticate"] }).toEqual({
            op: op.key,
            status: 401,
            body: { _tag: "Unauthorized", message },
            challenge
          })
          seen.push(op.key)
        }
        expect(seen).toContain("GET /reports/{call_id}/html")
        expect(seen).toContain("POST /v1/teams/audio")
        // the upload, the status, the list and a call's audio take a key or the session (the web app)
        for (const key of ["POST /v1/teams/audio", "GET /analysis/{call_id}", "GET /v1/teams/calls", "GET /v1/client-portal/calls/{call_id}/audio"]) {
          expect(operations.find((op) => op.key === key)?.schemes, key).toEqual(["tenantKey", "session"])
        }
      }))

    it.effect("an empty or blank key is a missing one; under /reporting too", () =>
      Effect.gen(function* () {
        const analysis = { key: "GET /v1/teams/calls/{call_id}", method: "GET", path: "/v1/teams/calls/call_x", schemes: ["tenantKey"], body: undefined }
        for (const blank of ["", "   "]) {
          const reply = yield* send(analysis, { "x-api-key": blank })
          expect(reply.status).toBe(401)
          expect(reply.body).toEqual({ _tag: "Unauthorized", message: MISSING.tenantKey })
          expect(reply.headers["www-authenticate"]).toBe(KEY_CHALLENGE)
        }
        const aliased = yield* send(analysis, {}, "/reporting")
        expect(aliased).toMatchObject({ status: 401, body: { message: MISSING.tenantKey }, headers: { "www-authenticate": KEY_CHALLENGE } })
        // an empty session cookie is a missing one
        const portal = yield* call("GET", "/v1/client-portal/daily-brief", { session: "" })
        expect(portal.status).toBe(401)
        expect(portal.body).toEqual({ _tag: "Unauthorized", message: MISSING.session })
        expect(portal.headers["www-authenticate"]).toBe(SESSION_CHALLENGE)
      }))

    it.effect("credentials come before the parameters: no key with a bad parameter is still 401", () =>
      Effect.gen(function* () {
        const reply = yield* call("GET", "/v1/internal/admin/recall-alerts?limit=9999")
        expect(reply.status).toBe(401)
        expect(reply.body.message).toBe(MISSING.adminKey)
        // with the key, the parameter is what is wrong: 422 on it, and no challenge
        const withKey = yield* call("GET", "/v1/internal/admin/recall-alerts?limit=9999", { headers: { "x-api-key": ADMIN_KEY } })
        expect(withKey.status).toBe(422)
        expect(withKey.body.detail[0].loc).toEqual(["query", "limit"])
        expect(withKey.headers["www-authenticate"]).toBeUndefined()
      }))

    it.effect("a bad key keeps its answer (401 invalid API key, now with the challenge); the wrong kind of key its 403", () =>
      Effect.gen(function* () {
        const bad = "csk_not_a_key_0123456789"
        for (const path of ["/analysis/call_x", "/v1/internal/admin/status", "/v1/internal/assistant/account-overview?client_id=x", "/reports/call_x/html"]) {
          const reply = yield* call("GET", path, { headers: { "x-api-key": bad } })
          expect(reply.status, path).toBe(401)
          expect(reply.body, path).toEqual({ _tag: "Unauthorized", message: "invalid API key" })
          expect(reply.headers["www-authenticate"], path).toBe(KEY_CHALLENGE)
        }
        const tenant = yield* createTenant(0)
        const tenantOnAdmin = yield* call("GET", "/v1/internal/admin/status", { headers: { "x-api-key": tenant.api_key } })
        expect(tenantOnAdmin.status).toBe(403)
        expect(tenantOnAdmin.body).toEqual({ _tag: "Forbidden", message: "this operation needs the admin key" })
        expect(tenantOnAdmin.headers["www-authenticate"]).toBeUndefined()
        const staffOnTenant = yield* call("GET", "/analysis/call_x", { headers: { "x-api-key": ADMIN_KEY } })
        expect(staffOnTenant.status).toBe(403)
        // a good key reaches the operation, unchallenged
        const known = yield* call("GET", "/analysis/call_x", { headers: { "x-api-key": tenant.api_key } })
        expect(known).toMatchObject({ status: 404, body: { _tag: "NotFound", message: "no call call_x" } })
        expect(known.headers["www-authenticate"]).toBeUndefined()
      }))

    it.effect("an unknown or expired session is 401 naming the sign-in again, with the cookie's challenge", () =>
      Effect.gen(function* () {
        const token = "sess_not_a_session_0123456789"
        const reply = yield* call("GET", "/v1/client-auth/me", { session: token })
        expect(reply.status).toBe(401)
        expect(reply.body).toEqual({ _tag: "Unauthorized", message: "the session is unknown or expired: sign in again at /sign-in" })
        expect(reply.headers["www-authenticate"]).toBe(SESSION_CHALLENGE)
      }))

    it.effect("POST /mcp keeps its own Bearer challenge, for no key and for an unknown one", () =>
      Effect.gen(function* () {
        const body = { jsonrpc: "2.0", id: 1, method: "tools/list" }
        const accept = { accept: "application/json, text/event-stream" }
        for (const headers of [accept, { ...accept, "x-api-key": "csk_not_a_key_for_mcp" }]) {
          const reply = yield* call("POST", "/mcp", { headers, body })
          expect(reply.status).toBe(401)
          expect(reply.headers["www-authenticate"]).toBe(`Bearer realm="callsight"`)
        }
      }))

    it.effect("no key or session token presented above reached a log line", () =>
      Effect.sync(() => {
        expect(logs.length).toBeGreaterThan(0)
        for (const secret of ["csk_not_a_key_0123456789", "sess_not_a_session_0123456789", "csk_not_a_key_for_mcp", ADMIN_KEY]) {
          expect(logs.filter((line) => line.includes(secret)), secret).toEqual([])
        }
      }))
  })
})
