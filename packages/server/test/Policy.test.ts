/**
 * The policy table (tenancy/Policy.ts, issue 36) names every operation a session can call, and the
 * service answers as it says: each operation called with a session of each role (owner, admin,
 * member) of one tenant is 403 where the table forbids the role, before its body is read, and
 * never 403 (nor 401, nor 5xx) where it allows it. `docs/policy.md` is the table written out.
 */
import { CallsightApi, SESSION_COOKIE } from "@callsight/api-spec"
import { HttpApi, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { readFileSync } from "node:fs"
import { POLICY, policyMarkdown } from "../src/tenancy/Policy.js"
import { call, freshEmail, newTenant, sessionCookie, tokenOf } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

/** Every operation of the declaration a portal session can call. */
const sessionOperations = (() => {
  const out: Array<{ key: string; method: string; path: string }> = []
  HttpApi.reflect(CallsightApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      if ([...middleware].some((m) => /Session/.test(m.key))) {
        out.push({ key: `${group.identifier}.${endpoint.name}`, method: endpoint.method, path: endpoint.path })
      }
    }
  })
  return out
})()

/** A request of `method` to `path` with the session cookie and, but for GET and DELETE, an empty JSON body: its status and tag. */
const attempt = (method: string, path: string, session: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method as "GET")(path).pipe(HttpClientRequest.setHeader("cookie", `${SESSION_COOKIE}=${session}`))
    if (method !== "GET" && method !== "DELETE") request = HttpClientRequest.bodyUnsafeJson(request, {})
    const response = yield* client.execute(request)
    const text = yield* response.text
    const tag = (response.headers["content-type"] ?? "").startsWith("application/json") && text !== "" ? (JSON.parse(text)._tag as string | undefined) : undefined
    return { status: response.status, tag }
  }).pipe(Effect.orDie)

describe("the policy table", () => {
  it("names every session operation, and nothing else", () => {
    expect(Object.keys(POLICY).sort()).toEqual(sessionOperations.map((o) => o.key).sort())
  })

  it("is written out in docs/policy.md (npm run status writes it)", () => {
    const doc = readFileSync(new URL("../../../docs/policy.md", import.meta.url), "utf8")
    expect(doc).toContain(policyMarkdown())
  })

  layer(serverWithSmtp(), { excludeTestServices: true })("on the service", (it) => {
    it.effect("each operation with a session of each role: 403 exactly where the table forbids it", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const owner = yield* newTenant()
        const sessionOf = (role: "admin" | "member") =>
          Effect.gen(function* () {
            const email = freshEmail(role)
            expect((yield* call("POST", "/v1/client-portal/members/invitations", { session: owner.session, body: { email, role } })).status).toBe(201)
            const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(yield* Effect.orDie(smtp.waitFor(email))) } })
            return Option.getOrThrow(sessionCookie(verified)).value
          })
        const sessions = { owner: owner.session, admin: yield* sessionOf("admin"), member: yield* sessionOf("member") }
        const seen: Array<string> = []
        for (const op of sessionOperations.filter((o) => o.key !== "clientAuth.logout")) {
          const path = op.path.replace(/:(\w+)/g, (_, name: string) => (name === "product" ? "starter" : `${name}_unknown`))
          for (const role of ["owner", "admin", "member"] as const) {
            const { status, tag } = yield* attempt(op.method, path, sessions[role])
            const rule = (POLICY as Record<string, Record<string, string>>)[op.key]![role]
            if (rule === "forbidden") {
              expect([status, tag], `${op.key} as ${role}`).toEqual([403, "Forbidden"])
            } else {
              expect(status, `${op.key} as ${role}`).not.toBe(403)
              expect(status, `${op.key} as ${role}`).not.toBe(401)
              expect(status, `${op.key} as ${role}`).toBeLessThan(500)
            }
            seen.push(`${op.key}:${role}`)
          }
        }
        expect(seen).toHaveLength((sessionOperations.length - 1) * 3)
        // the door answers the same under /reporting
        expect((yield* attempt("GET", "/reporting/v1/client-portal/api-keys", sessions.member)).status).toBe(403)
        expect((yield* attempt("GET", "/reporting/v1/client-portal/api-keys", sessions.admin)).status).toBe(200)
      }), 120_000)
  })
})
