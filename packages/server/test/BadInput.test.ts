/**
 * Bad input gets a clear 4xx, never a 500 and never silence: bodies that are not JSON or nested
 * too deep, NUL characters and unpaired surrogates anywhere, bodies of the wrong media type,
 * multipart bodies without a boundary or an end, undeclared fields, and cross-site writes with
 * the session cookie. The requests are sent as bytes, as a client that gets them wrong would.
 */
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { admin, createTenant } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"

interface RawOptions {
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
}

/** One request with exactly these headers and bytes; a request left unanswered fails the test in 10 s. */
const raw = (method: "GET" | "POST" | "PUT", path: string, options: RawOptions = {}) =>
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    const address = server.address as HttpServer.TcpAddress
    return yield* Effect.tryPromise(async (signal) => {
      const response = await fetch(`http://127.0.0.1:${address.port}${path}`, {
        method,
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)])
      })
      const text = await response.text()
      return { status: response.status, body: text === "" ? null : JSON.parse(text) }
    })
  }).pipe(Effect.orDie)

const json = { "content-type": "application/json" }
const LOGIN = "/v1/client-auth/login"

const locOf = (body: any) => body.detail.map((d: any) => d.loc.join("."))

// The server's own timers (the upload's end-of-body watch) run on the real clock.
layer(serverWithSmtp(), { excludeTestServices: true })("bad input", (it) => {
  describe("bodies that are not JSON", () => {
    it.effect("invalid, truncated, garbage bytes and 5,000 levels deep are 422 on the body, not 500", () =>
      Effect.gen(function* () {
        const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`
        for (const body of ['{"email": 1,,', '{"email": "ana@exa', new Uint8Array([0xff, 0xfe, 0x00, 0x41]), deep]) {
          const reply = yield* raw("POST", LOGIN, { headers: json, body })
          expect(reply.status).toBe(422)
          expect(reply.body._tag).toBe("ValidationFailed")
          expect(locOf(reply.body)).toEqual(["body"])
        }
        const notJson = yield* raw("POST", "/v1/client-portal/closers/verify-email", { headers: json, body: "{" })
        expect(notJson.body).toEqual({
          _tag: "ValidationFailed",
          detail: [{ loc: ["body"], msg: "the body is not valid JSON", type: "json_invalid" }]
        })
      }))

    it.effect("a JSON operation takes application/json only: a form, text or multipart is 415", () =>
      Effect.gen(function* () {
        const cases = [
          { "content-type": "application/x-www-form-urlencoded", body: "email=ana%40example.com" },
          // a browser sends this cross-site without asking; the platform would read it as JSON
          { "content-type": "text/plain; application/json", body: '{"email":"ana@example.com"}' },
          { "content-type": "multipart/form-data; boundary=XX", body: "" },
          { "content-type": "multipart/form-data", body: '{"email":"ana@example.com"}' }
        ]
        for (const { body, ...headers } of cases) {
          const reply = yield* raw("POST", LOGIN, { headers, body })
          expect(reply.status, headers["content-type"]).toBe(415)
          expect(reply.body).toEqual({ _tag: "UnsupportedMediaType", message: "this operation takes an application/json body" })
        }
      }))

    it.effect("a field the body does not declare is 422 extra_forbidden, at any depth", () =>
      Effect.gen(function* () {
        const extra = yield* raw("POST", LOGIN, { headers: json, body: '{"email":"ana@example.com","is_admin":true}' })
        expect(extra.status).toBe(422)
        expect(extra.body.detail).toEqual([{ loc: ["body", "is_admin"], msg: expect.any(String), type: "extra_forbidden" }])
        const { session } = yield* newTenant()
        const nested = yield* call("PUT", "/v1/client-portal/market-profile", {
          session,
          body: { industry: "Software", icps: [{ label: "Mid-market", zzz: 1 }] }
        })
        expect(nested.status).toBe(422)
        expect(locOf(nested.body)).toEqual(["body.icps.0.zzz"])
      }))
  })

  describe("NUL characters and unpaired surrogates", () => {
    it.effect("in a path, a query, a body field, a free-form body: 422 where it was; a surrogate pair is fine", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(1)
        const { session } = yield* newTenant()
        const path = yield* raw("GET", "/analysis/abc%00def", { headers: { "x-api-key": tenant.api_key } })
        expect(path.status).toBe(422)
        expect(locOf(path.body)).toEqual(["path.call_id"])
        const query = yield* call("GET", "/v1/client-portal/events?status=a%00b", { session })
        expect(query.status).toBe(422)
        expect(locOf(query.body)).toEqual(["query.status"])
        for (const text of ["a\u0000b", "a\ud800b"]) {
          const field = yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { sub_industry: text } })
          expect(field.status).toBe(422)
          expect(locOf(field.body)).toEqual(["body.sub_industry"])
        }
        const pair = yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { sub_industry: "a\ud83d\ude00b" } })
        expect(pair.status).toBe(200)
        expect(pair.body.sub_industry).toBe("a😀b")
        const flags = `/v1/internal/admin/settings/runtime-flags/${tenant.client_id}`
        for (const body of [{ "a\u0000": true }, { report: { x: ["ok", "a\u0000"] } }, { "x\udc00": 1 }]) {
          expect((yield* call("PUT", flags, { headers: admin, body })).status).toBe(422)
        }
      }))
  })

  describe("the upload", () => {
    it.effect("takes multipart/form-data with a boundary: none is 415, JSON is 415, no boundary is 422", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(1)
        const key = { "x-api-key": tenant.api_key }
        expect((yield* raw("POST", "/v1/teams/audio", { headers: key })).status).toBe(415)
        expect((yield* raw("POST", "/v1/teams/audio", { headers: { ...key, ...json }, body: '{"audio":"x"}' })).status).toBe(415)
        const noBoundary = yield* raw("POST", "/v1/teams/audio", { headers: { ...key, "content-type": "multipart/form-data" }, body: "x" })
        expect(noBoundary.status).toBe(422)
      }))

    it.effect("a multipart body that ends before its closing boundary is answered 422, not left waiting", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(1)
        const headers = { "x-api-key": tenant.api_key, "content-type": "multipart/form-data; boundary=XX" }
        const unterminated = '--XX\r\nContent-Disposition: form-data; name="external_call_id"'
        for (const body of ["", "--XX\r\n", unterminated]) {
          const reply = yield* raw("POST", "/v1/teams/audio", { headers, body })
          expect(reply.status).toBe(422)
          expect(reply.body._tag).toBe("ValidationFailed")
        }
      }))

    it.effect("a NUL in a form field is 422 on that field, and the file is not kept", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(1)
        const form = new FormData()
        form.append("audio", new Blob([fixture("discovery-short.wav")]), "call.wav")
        form.append("external_call_id", "crm\u0000123")
        const client = yield* HttpClient.HttpClient
        const response = yield* client.execute(
          HttpClientRequest.post("/v1/teams/audio").pipe(
            HttpClientRequest.setHeader("x-api-key", tenant.api_key),
            HttpClientRequest.bodyFormData(form)
          )
        )
        expect(response.status).toBe(422)
        expect(locOf(yield* response.json)).toEqual(["body.external_call_id"])
      }).pipe(Effect.orDie))
  })

  describe("cross-site writes with the session cookie", () => {
    it.effect("another site's Origin is 403 and nothing is written; the service's own origin works", () =>
      Effect.gen(function* () {
        const { session } = yield* newTenant()
        const add = (email: string, origin: Record<string, string>) =>
          call("POST", "/v1/client-portal/closers", { session, headers: origin, body: { email, full_name: "Cy Closer" } })
        const evil = yield* add("cy@acme.test", { origin: "https://evil.example" })
        expect(evil.status).toBe(403)
        expect(evil.body).toEqual({ _tag: "Forbidden", message: "cross-site request refused: the Origin is not this service" })
        expect((yield* add("cy@acme.test", { "sec-fetch-site": "cross-site" })).status).toBe(403)
        expect((yield* call("GET", "/v1/client-portal/closers", { session })).body.closers).toEqual([])
        expect((yield* add("cy@acme.test", { origin: "http://localhost:8080" })).status).toBe(200)
        const logout = yield* call("POST", "/v1/client-auth/logout", { session, headers: { origin: "https://evil.example" } })
        expect(logout.status).toBe(403)
        expect((yield* call("GET", "/v1/client-auth/me", { session })).status).toBe(200)
      }))
  })
})
