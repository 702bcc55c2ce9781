/**
 * Every operation still in `Pending` answers 501 `NotImplemented` naming itself, never a made-up
 * answer, to a caller with the right credential and a valid request; and every operation not in it
 * answers something else. The requests are derived from the declaration: the credential from the
 * operation's security middleware, the path, query, headers and body sampled from its schemas.
 */
import {
  AdminAuth,
  AssistantAuth,
  CallsightApi,
  isPending,
  Pending,
  SessionAuth,
  TenantAuth
} from "@callsight/api-spec"
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Arbitrary, Effect, FastCheck, Option, Schema } from "effect"
import { admin, createTenant } from "./utils/AudioRequests.js"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { ASSISTANT_KEY } from "./utils/TestServer.js"

interface Operation {
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly middleware: ReadonlySet<unknown>
}

const operations: Array<Operation> = []
HttpApi.reflect(CallsightApi as unknown as HttpApi.HttpApi.AnyWithProps, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, group, middleware }) =>
    operations.push({ group, endpoint: endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, middleware })
})

/** One valid value of a schema, on the wire (its encoded side), the same in every run. */
const sample = <A, I>(schema: Schema.Schema<A, I, never>, seed: number): I =>
  Schema.encodeSync(schema)(FastCheck.sample(Arbitrary.make(schema), { seed, numRuns: 1 })[0]!)

const sampled = (schema: Option.Option<Schema.Schema.Any>, seed: number): Record<string, unknown> | undefined =>
  Option.match(schema, {
    onNone: () => undefined,
    onSome: (s) => sample(s as Schema.Schema<unknown, Record<string, unknown>, never>, seed)
  })

/** The request an operation's schemas accept: path filled in, query string, headers and JSON body. */
const requestOf = ({ endpoint }: Operation, seed: number) => {
  const params = sampled(endpoint.pathSchema, seed) ?? {}
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name]) || "x"))
  const query = new URLSearchParams(
    Object.entries(sampled(endpoint.urlParamsSchema, seed) ?? {}).flatMap(([key, value]): Array<[string, string]> =>
      value === undefined ? [] : Array.isArray(value) ? value.map((v) => [key, String(v)]) : [[key, String(value)]]
    )
  ).toString()
  const headers = Object.fromEntries(
    Object.entries(sampled(endpoint.headersSchema, seed) ?? {}).map(([k, v]) => [k, String(v)])
  )
  return { path: query === "" ? path : `${path}?${query}`, headers, body: sampled(endpoint.payloadSchema, seed) }
}

const name = ({ endpoint }: Operation) => `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`

const pending = operations.filter((op) => isPending(op.group.identifier, op.endpoint.name))

layer(serverWithSmtp())("operations not built yet", (it) => {
  /** The credential each security middleware asks for, made once. */
  const credentials = Effect.gen(function* () {
    const tenant = yield* createTenant(1)
    const { session } = yield* newTenant()
    return (middleware: ReadonlySet<unknown>): { headers?: Record<string, string>; session?: string } => {
      if (middleware.has(AdminAuth)) return { headers: admin }
      if (middleware.has(AssistantAuth)) return { headers: { "x-api-key": ASSISTANT_KEY } }
      if (middleware.has(TenantAuth)) return { headers: { "x-api-key": tenant.api_key } }
      if (middleware.has(SessionAuth)) return { session }
      return {}
    }
  })

  it("every name of the pending lists is an operation of the declaration", () => {
    expect(pending.length).toBe(Object.values(Pending).reduce((n, names) => n + names.length, 0))
  })

  it.effect("each answers 501 NotImplemented naming itself, to the right caller with a valid request", () =>
    Effect.gen(function* () {
      const credentialOf = yield* credentials
      for (const [i, op] of pending.entries()) {
        const request = requestOf(op, i + 1)
        const credential = credentialOf(op.middleware)
        const reply = yield* call(op.endpoint.method as "GET", request.path, {
          ...credential,
          headers: { ...request.headers, ...credential.headers },
          ...(request.body === undefined ? {} : { body: request.body })
        })
        expect(reply.status, `${name(op)}: ${JSON.stringify(reply.body).slice(0, 300)}`).toBe(501)
        expect(reply.body).toEqual({
          _tag: "NotImplemented",
          operation: name(op),
          message: `${name(op)} is not implemented yet`
        })
      }
    }))

  it.effect("the caller is checked first: without its credential a pending operation is 401 or 422, not 501", () =>
    Effect.gen(function* () {
      for (const [i, op] of pending.entries()) {
        if (op.middleware.size === 0) continue
        const request = requestOf(op, i + 1)
        const { "x-api-key": _, ...headers } = request.headers
        const reply = yield* call(op.endpoint.method as "GET", request.path, {
          headers,
          ...(request.body === undefined ? {} : { body: request.body })
        })
        expect([401, 422], name(op)).toContain(reply.status)
      }
    }))

  describe("the OpenAPI document", () => {
    it.effect("shows the 501 response on exactly the pending operations", () =>
      Effect.gen(function* () {
        const { body } = yield* call("GET", "/openapi.json")
        const with501 = Object.values(body.paths as Record<string, Record<string, any>>)
          .flatMap((item) => Object.values(item))
          .filter((operation) => operation.responses?.["501"] !== undefined)
          .map((operation) => operation.operationId)
          .sort()
        expect(with501).toEqual(pending.map((op) => `${op.group.identifier}.${op.endpoint.name}`).sort())
      }))
  })
})
