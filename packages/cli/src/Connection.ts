/**
 * Where the service is and which credential to present: flags first, then the environment
 * (`CALLSIGHT_URL`, default http://localhost:8080; `CALLSIGHT_API_KEY`; `CALLSIGHT_ADMIN_KEY`);
 * for portal operations, the session `callsight verify` stored (SessionStore.ts).
 *
 * Each command derives its client from an API of the groups it uses (`deriveClient` of
 * @callsight/client over `withApiErrors(HttpApi.make("callsight").add(ExtensionsApi))`), not from
 * the whole declaration: a command loads the declarations of its own operations only, the other
 * groups' schemas stay unread (docs/architecture.md, "The CLI's builds").
 */
import { SESSION_COOKIE } from "@callsight/api-spec"
import { deriveClient, type DerivedClient, normalizeBaseUrl } from "@callsight/client"
import { Options } from "@effect/cli"
import { FetchHttpClient, type HttpApi, type HttpApiGroup, HttpClient, HttpClientRequest } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Config, Effect, Option, Redacted } from "effect"
import { fromClientError, UsageError } from "./Errors.js"

export const DEFAULT_URL = "http://localhost:8080"

export const urlOption = Options.text("url").pipe(
  Options.withPseudoName("URL"),
  Options.withFallbackConfig(Config.string("CALLSIGHT_URL")),
  Options.withDefault(DEFAULT_URL),
  Options.withDescription(`Base URL of the service (env CALLSIGHT_URL; default ${DEFAULT_URL})`)
)

export const adminKeyOption = Options.redacted("admin-key").pipe(
  Options.withPseudoName("KEY"),
  Options.withFallbackConfig(Config.redacted("CALLSIGHT_ADMIN_KEY")),
  Options.optional,
  Options.withDescription("The staff admin key, ADMIN_API_KEY of the server (env CALLSIGHT_ADMIN_KEY)")
)

export const apiKeyOption = Options.redacted("api-key").pipe(
  Options.withPseudoName("KEY"),
  Options.withFallbackConfig(Config.redacted("CALLSIGHT_API_KEY")),
  Options.optional,
  Options.withDescription("A tenant API key, csk_... (env CALLSIGHT_API_KEY)")
)

/** The JSON switch of every command that prints a result: then stdout holds only JSON. */
export const jsonOption = Options.boolean("json").pipe(
  Options.withDescription("Print the result as JSON on stdout (and nothing else there)")
)

/** The service's base URL, normalized (the key of its stored session); a usage error when not http(s). */
export const baseUrl = (url: string): Effect.Effect<string, UsageError> =>
  Effect.try({
    try: () => {
      const normalized = normalizeBaseUrl(url)
      if (!/^https?:$/.test(new URL(normalized).protocol)) throw new Error("not http(s)")
      return normalized
    },
    catch: () => new UsageError({ message: `not an http(s) URL: ${JSON.stringify(url)} (--url or CALLSIGHT_URL)` })
  })

const requireKey = (
  key: Option.Option<Redacted.Redacted<string>>,
  what: string
): Effect.Effect<Redacted.Redacted<string>, UsageError> =>
  Option.match(Option.filter(key, (k) => Redacted.value(k).trim() !== ""), {
    onNone: () => Effect.fail(new UsageError({ message: `no ${what}` })),
    onSome: Effect.succeed
  })

/** The client `deriveClient` derives from an API of some of the service's groups. */
export type ClientOf<A> = A extends HttpApi.HttpApi<infer _Id, infer Groups, infer E, infer _R> ? DerivedClient<Groups, E> : never

/** An API of some of the service's groups, as a command derives its client from it (`deriveClient`). */
type Api<Groups extends HttpApiGroup.HttpApiGroup.Any, E> = HttpApi.HttpApi<string, Groups, E, never>

/**
 * How a client sends its requests: over `node:http` (`NodeHttpClient`, its agent closed with the
 * run's scope, Cli.ts) unless a command streams an upload. `fetch` loads and compiles undici before
 * its first request, a fifth of a client command's start; but the service may answer an upload
 * before its body is all sent (401 for a wrong key, 413 for a file too large), and `fetch` reads
 * that answer where @effect/platform-node's `node:http` client reports the broken pipe
 * ("write EPIPE"), so uploads go through `fetch`.
 */
export type Transport = "node:http" | "fetch"

/** The `HttpClient` of a transport; a `node:http` agent lives as long as the run's scope. */
const httpClientOf = (transport: Transport) =>
  transport === "fetch"
    ? Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
    : Effect.provideServiceEffect(NodeHttpClient.make, NodeHttpClient.HttpAgent, NodeHttpClient.makeAgent())

/**
 * The client of `api` (the groups the command uses: their declarations are all it loads) at
 * `base`, presenting `apiKey` when there is one, with `transform` applied to each request.
 */
export const clientOf = <Groups extends HttpApiGroup.HttpApiGroup.Any, E>(
  api: Api<Groups, E>,
  options: { readonly baseUrl: string; readonly apiKey?: Redacted.Redacted<string> },
  transport: Transport = "node:http",
  transform: (client: HttpClient.HttpClient) => HttpClient.HttpClient = (client) => client
) =>
  Effect.flatMap(httpClientOf(transport), (httpClient) =>
    deriveClient(api, options).pipe(Effect.provideService(HttpClient.HttpClient, transform(httpClient))))

/** The client of `api` at `url` presenting the admin key; a usage error when there is none. */
export const adminClient = <Groups extends HttpApiGroup.HttpApiGroup.Any, E>(
  api: Api<Groups, E>,
  url: string,
  adminKey: Option.Option<Redacted.Redacted<string>>
) =>
  Effect.gen(function* () {
    const key = yield* requireKey(adminKey, "admin key: pass --admin-key or set CALLSIGHT_ADMIN_KEY")
    return yield* clientOf(api, { baseUrl: yield* baseUrl(url), apiKey: key })
  })

/** The tenant key of `--api-key` or `CALLSIGHT_API_KEY`; a usage error when there is none. */
export const tenantKey = (apiKey: Option.Option<Redacted.Redacted<string>>) =>
  requireKey(apiKey, "API key: pass --api-key or set CALLSIGHT_API_KEY")

/** The client of `api` at `url` presenting a tenant key; a usage error when there is none. */
export const tenantClient = <Groups extends HttpApiGroup.HttpApiGroup.Any, E>(
  api: Api<Groups, E>,
  url: string,
  apiKey: Option.Option<Redacted.Redacted<string>>,
  transport?: Transport
) =>
  Effect.gen(function* () {
    const key = yield* tenantKey(apiKey)
    return yield* clientOf(api, { baseUrl: yield* baseUrl(url), apiKey: key }, transport)
  })

/** The client of `api` at `url` without a credential (sign-in, public operations). */
export const publicClient = <Groups extends HttpApiGroup.HttpApiGroup.Any, E>(api: Api<Groups, E>, url: string) =>
  Effect.flatMap(baseUrl(url), (base) => clientOf(api, { baseUrl: base }))

/** The client of `api` at `url` presenting a portal session (its cookie on every request). */
export const sessionClient = <Groups extends HttpApiGroup.HttpApiGroup.Any, E>(
  api: Api<Groups, E>,
  url: string,
  session: string
) =>
  Effect.flatMap(baseUrl(url), (base) =>
    clientOf(api, { baseUrl: base }, "node:http", HttpClient.mapRequest(HttpClientRequest.setHeader("cookie", `${SESSION_COOKIE}=${session}`))))

/** Runs `f` with the tenant's client of `api`; failures classified for the exit code (Errors.ts). */
export const withTenantApi = <Groups extends HttpApiGroup.HttpApiGroup.Any, E, A, E2>(
  api: Api<Groups, E>,
  args: { readonly url: string; readonly apiKey: Option.Option<Redacted.Redacted<string>> },
  f: (client: DerivedClient<Groups, E>) => Effect.Effect<A, E2>
) => Effect.flatMap(tenantClient(api, args.url, args.apiKey), (client) => f(client).pipe(Effect.catchAll(fromClientError)))
