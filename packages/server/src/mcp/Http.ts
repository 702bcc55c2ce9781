/**
 * `POST /mcp`: the MCP tools (./Tools.ts) over the Streamable HTTP transport of
 * `@modelcontextprotocol/sdk`, stateless: every request gets its own MCP server and transport, so
 * any process behind a load balancer answers any request. `GET` and `DELETE /mcp` are 405, as the
 * specification lets a server without sessions or server-initiated streams answer.
 *
 * The caller presents a tenant key in `X-API-Key` or `Authorization: Bearer` and the key is checked
 * by the API's own `TenantAuth` (401 without a key or with an unknown one, 403 for a staff key).
 * The tools then run with that key over the typed client pointed at this very server (its listening
 * address, so every operation is the REST operation with its checks and tenant isolation); workspace
 * search and outcome recording, which have no operation a tenant key can reach, call the floor's
 * services (views/Search.ts, `OutcomeRecords`) for the key's tenant.
 *
 * An outcome recorded through a key has the key as its writer: `recorded_by` is the key's id
 * (`key_…`) and the audit row's actor the key, as for any other write by a key.
 *
 * The tools and the SDK (with its zod and ajv) are loaded by the first `POST /mcp` of the process,
 * not before the server listens.
 */
import { CurrentClient, type ClientIdentity, TenantAuth, type UserId } from "@callsight/api-spec"
import { CallsightClient } from "@callsight/client"
import {
  FetchHttpClient,
  Headers,
  HttpApiBuilder,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Effect, Layer, Redacted, Stream } from "effect"
import { AppConfig } from "../config.js"
import { Outbound } from "../lib/Outbound.js"
import { Callers } from "../tenancy/Caller.js"
import { TEAM } from "../tenancy/Sees.js"
import { OutcomeRecords } from "../ports/OutcomeRecords.js"
import { CallTrackers } from "../ports/CallTrackers.js"
import { Trends } from "../views/Trends.js"
import { VERSION } from "../version.js"
import { Search } from "../views/Search.js"

export const MCP_PATH = "/mcp"

/** The largest JSON-RPC body read (a base64 recording in `upload_audio`). */
const MAX_BODY_BYTES = 64 * 1024 * 1024
/** The largest recording `upload_audio` takes as a URL or base64 (also at most MAX_UPLOAD_MB). */
const MAX_REMOTE_AUDIO_BYTES = 45 * 1024 * 1024
const DOWNLOAD_TIMEOUT_MS = 60_000

/** The key of `X-API-Key`, else of `Authorization: Bearer`; undefined when neither holds one. */
export const presentedKey = (headers: Headers.Headers): string | undefined => {
  const header = headers["x-api-key"]?.trim()
  if (header !== undefined && header !== "") return header
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers["authorization"] ?? "")?.[1]
  return bearer === undefined || bearer === "" ? undefined : bearer
}

const jsonError = (status: number, tag: string, message: string) =>
  HttpServerResponse.unsafeJson({ _tag: tag, message }, {
    status,
    headers: status === 401 ? Headers.fromInput({ "www-authenticate": "Bearer realm=\"callsight\"" }) : Headers.empty
  })

/** The URL this server answers on, for its own client (an unspecified address is reached on loopback). */
const selfUrl = (address: HttpServer.Address): string => {
  if (address._tag === "UnixAddress") throw new Error("POST /mcp needs a TCP server")
  const host = address.hostname === "" || address.hostname === "0.0.0.0" || address.hostname === "::"
    ? "127.0.0.1"
    : address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname
  return `http://${host}:${address.port}`
}

/** The tools and the SDK's transport, loaded on first use. */
const mcpModules = Effect.promise(() =>
  Promise.all([import("./Tools.js"), import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")])
)

const methodNotAllowed = HttpServerResponse.unsafeJson(
  {
    jsonrpc: "2.0",
    error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; send requests with POST" },
    id: null
  },
  { status: 405, headers: Headers.fromInput({ allow: "POST" }) }
)

export const McpHttpLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const auth = yield* TenantAuth
    const config = yield* AppConfig
    const search = yield* Search
    const outbound = yield* Outbound
    const outcomes = yield* OutcomeRecords
    const trackers = yield* CallTrackers
    const trends = yield* Trends
    const callers = yield* Callers
    const server = yield* HttpServer.HttpServer
    const runtime = yield* Effect.runtime<never>()
    const baseUrl = selfUrl(server.address)
    const limits = {
      maxBytes: Math.min(MAX_REMOTE_AUDIO_BYTES, config.maxUploadMb * 1024 * 1024),
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      outbound
    }

    /** The service's own client, derived from the declaration once, by the first `POST /mcp`. */
    const ownClient = yield* Effect.cached(CallsightClient.make({ baseUrl }).pipe(Effect.provide(FetchHttpClient.layer)))

    /** The MCP server of one request, for the tenant of `identity`, its tools presenting `key`. */
    const mcpServerFor = (key: string, identity: ClientIdentity) =>
      Effect.gen(function* () {
        const [{ makeMcpServer }] = yield* mcpModules
        const client = (yield* ownClient).withApiKey(key)
        const actor = yield* Effect.provideService(callers.actor, CurrentClient, identity)
        const writer = actor.id as UserId
        return makeMcpServer({
          client,
          reportBaseUrl: config.publicBaseUrl,
          audio: { _tag: "remote", limits },
          searchCalls: (params) => search.search(identity.clientId, TEAM, params),
          trackerReport: (params) => trackers.report(identity.clientId, TEAM, params),
          trends: (params) => trends.compute(identity.clientId, TEAM, params),
          closingAudits: {
            create: (request) => client.closingAudits.createClosingAudit({ headers: {}, payload: request }),
            get: (auditId) => client.closingAudits.getClosingAudit({ path: { audit_id: auditId } })
          },
          recordOutcome: (callId, request) =>
            outcomes.record(
              {
                clientId: identity.clientId,
                // a key acts for the tenant, not as a person: the key is the writer (see above)
                user: { userId: writer, clientId: identity.clientId, email: "", role: "member" },
                sees: TEAM,
                actor
              },
              callId,
              request
            ),
          runtime
        }, { version: VERSION })
      })

    const post = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = presentedKey(request.headers)
      if (key === undefined) {
        return jsonError(401, "Unauthorized", "a tenant API key is needed: X-API-Key or Authorization: Bearer")
      }
      const identity = yield* auth.tenantKey(Redacted.make(key)).pipe(Effect.either)
      if (identity._tag === "Left") {
        const error = identity.left
        return error._tag === "Forbidden" ? jsonError(403, error._tag, error.message) : jsonError(401, "Unauthorized", "invalid API key")
      }
      const mcp = yield* mcpServerFor(key, identity.right)
      const [, { WebStandardStreamableHTTPServerTransport }] = yield* mcpModules
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        maxRequestBodySize: MAX_BODY_BYTES
      })
      const close = Effect.promise(() => mcp.close().catch(() => undefined))
      yield* Effect.promise(() => mcp.connect(transport))
      const webRequest = yield* HttpServerRequest.toWeb(request).pipe(Effect.tapError(() => close))
      const response = yield* Effect.promise(() => transport.handleRequest(webRequest)).pipe(Effect.onInterrupt(() => close))
      const headers = Headers.remove(Headers.fromInput(Object.fromEntries(response.headers)), "content-type")
      if (response.body === null) {
        yield* close
        return HttpServerResponse.empty({ status: response.status, headers })
      }
      // an SSE stream while a tool runs: the server closes when it ends or the caller goes away
      const body = response.body
      return HttpServerResponse.stream(
        Stream.fromReadableStream({ evaluate: () => body, onError: (e) => e }).pipe(Stream.ensuring(close)),
        { status: response.status, headers, contentType: response.headers.get("content-type") ?? undefined }
      )
    })

    yield* router.post(MCP_PATH, post)
    yield* router.get(MCP_PATH, Effect.succeed(methodNotAllowed))
    yield* router.del(MCP_PATH, Effect.succeed(methodNotAllowed))
  })
).pipe(Layer.provide([Search.Default, Callers.Default, Outbound.Default, Trends.Default]))
