/**
 * Where the service is and which credential to present: flags first, then the environment
 * (`CALLSIGHT_URL`, default http://localhost:8080; `CALLSIGHT_API_KEY`; `CALLSIGHT_ADMIN_KEY`);
 * for portal operations, the session `callsight verify` stored (SessionStore.ts).
 */
import { CallsightClient, type CallsightClientService, normalizeBaseUrl } from "@callsight/client"
import { Options } from "@effect/cli"
import { SESSION_COOKIE } from "@callsight/api-spec"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Config, Effect, Layer, Option, Redacted } from "effect"
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

/** The client of the service at `url` presenting the admin key; a usage error when there is none. */
export const adminClient = (url: string, adminKey: Option.Option<Redacted.Redacted<string>>) =>
  Effect.gen(function* () {
    const key = yield* requireKey(adminKey, "admin key: pass --admin-key or set CALLSIGHT_ADMIN_KEY")
    return CallsightClient.layer({ baseUrl: yield* baseUrl(url), apiKey: key })
  })

/** The client of the service at `url` presenting a tenant key; a usage error when there is none. */
export const tenantClient = (url: string, apiKey: Option.Option<Redacted.Redacted<string>>) =>
  Effect.gen(function* () {
    const key = yield* requireKey(apiKey, "API key: pass --api-key or set CALLSIGHT_API_KEY")
    return CallsightClient.layer({ baseUrl: yield* baseUrl(url), apiKey: key })
  })

/** The client of the service at `url` without a credential (sign-in, public operations). */
export const publicClient = (url: string) =>
  Effect.map(baseUrl(url), (base) => CallsightClient.layer({ baseUrl: base }))

/** The client of the service at `url` presenting a portal session (its cookie on every request). */
export const sessionClient = (url: string, session: string) =>
  Effect.map(baseUrl(url), (base) =>
    CallsightClient.layerWithoutHttpClient({ baseUrl: base }).pipe(
      Layer.provide(
        Layer.effect(
          HttpClient.HttpClient,
          Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.setHeader("cookie", `${SESSION_COOKIE}=${session}`)))
        )
      ),
      Layer.provide(FetchHttpClient.layer)
    ))

/** Runs `f` with the tenant's client; failures classified for the exit code (Errors.ts). */
export const withTenantApi = <A, E>(
  args: { readonly url: string; readonly apiKey: Option.Option<Redacted.Redacted<string>> },
  f: (client: CallsightClientService) => Effect.Effect<A, E>
) =>
  Effect.flatMap(tenantClient(args.url, args.apiKey), (layer) =>
    Effect.flatMap(CallsightClient, f).pipe(Effect.catchAll(fromClientError), Effect.provide(layer)))
