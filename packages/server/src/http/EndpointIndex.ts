/**
 * Which declared operation a request is for, found from the API declaration itself. The 422
 * middleware uses it to say where a bad value was (`path`, `query`, `header` or `body`), and the
 * metrics use its route pattern (`GET /analysis/{call_id}`) so ids do not explode the label set.
 */
import { HttpApi, HttpApiSchema, HttpMethod } from "@effect/platform"
import { CallsightApi, SessionAuth, TenantOrSessionAuth } from "@callsight/api-spec"
import { Option, SchemaAST } from "effect"
import * as FindMyWay from "find-my-way-ts"

export type Location = "path" | "query" | "header" | "body"

export interface EndpointInfo {
  /** `METHOD /path/{param}`, as in the OpenAPI document. */
  readonly route: string
  readonly fields: ReadonlyMap<string, Location>
  /** What the body must be: JSON, a multipart form, or nothing is read (no payload, or GET). */
  readonly body: "json" | "multipart" | undefined
  /** Authenticated by the portal's session cookie, so a browser may send it from another site. */
  readonly session: boolean
}

const bodyKind = (endpoint: {
  readonly method: HttpMethod.HttpMethod
  readonly payloadSchema: Option.Option<{ readonly ast: SchemaAST.AST }>
}): EndpointInfo["body"] =>
  Option.match(endpoint.payloadSchema, {
    onNone: () => undefined,
    onSome: ({ ast }) =>
      !HttpMethod.hasBody(endpoint.method)
        ? undefined
        : HttpApiSchema.getMultipart(ast) !== undefined || HttpApiSchema.getMultipartStream(ast) !== undefined
          ? "multipart"
          : HttpApiSchema.getEncoding(ast).kind === "Json"
            ? "json"
            : undefined
  })

const fieldNames = (schema: Option.Option<{ readonly ast: SchemaAST.AST }>): ReadonlyArray<string> =>
  Option.match(schema, {
    onNone: () => [],
    onSome: (s) => SchemaAST.getPropertySignatures(s.ast).map((ps) => String(ps.name))
  })

const build = (api: HttpApi.HttpApi.Any) => {
  const router = FindMyWay.make<EndpointInfo>({ ignoreTrailingSlash: true })
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      const fields = new Map<string, Location>()
      for (const name of fieldNames(endpoint.pathSchema)) fields.set(name, "path")
      for (const name of fieldNames(endpoint.urlParamsSchema)) fields.set(name, "query")
      for (const name of fieldNames(endpoint.headersSchema)) fields.set(name, "header")
      const route = `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`
      const session = [...middleware].some((tag) => tag.key === SessionAuth.key || tag.key === TenantOrSessionAuth.key)
      const body = bodyKind(endpoint)
      router.on(endpoint.method, endpoint.path as FindMyWay.PathInput, { route, fields, body, session })
    }
  })
  return router
}

const index = build(CallsightApi)

/** The operation for a method and URL, if the declaration has one. */
export const findEndpoint = (method: string, url: string): EndpointInfo | undefined =>
  index.find(method, url.split("?")[0])?.handler

/** Where a field of a failed decode lives; anything not in path, query or headers is the body. */
export const locate = (endpoint: EndpointInfo | undefined, field: PropertyKey | undefined): Location =>
  (field !== undefined && endpoint?.fields.get(String(field))) || "body"

const seen = new WeakMap<object, EndpointInfo | null>()

/** The operation of a request, looked up once per request (the guard, the 422s and the metrics ask). */
export const endpointOf = (request: { readonly method: string; readonly url: string }): EndpointInfo | undefined => {
  const known = seen.get(request)
  if (known !== undefined) return known ?? undefined
  const found = findEndpoint(request.method, request.url)
  seen.set(request, found ?? null)
  return found
}
