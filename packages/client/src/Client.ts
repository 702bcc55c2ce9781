/**
 * The typed client of the Callsight API, derived from the declaration (`CallsightApi`) with
 * `HttpApiClient`: every operation, its parameters, its success and its typed errors come from
 * the declaration (the api-spec package, bundled in), so the client cannot drift from the server.
 *
 * `CallsightClient` is the Effect service. Its value is the derived client with the API key
 * filled in: operations that declare the `x-api-key` header take it from the layer, so
 *
 * ```ts
 * const callsight = yield* CallsightClient
 * const created = yield* callsight.extensions.createClient({ payload: new CreateClientRequest({ company_name: "Acme" }) })
 * ```
 *
 * needs no `headers`. `callsight.withApiKey(key)` is the same client with another key (a tenant
 * key next to the admin key), `callsight.raw` the client exactly as `HttpApiClient.make` derives it.
 *
 * Audio analysis has helpers on top of the derived operations (Audio.ts): `uploadAudio(source,
 * options)` (a path streamed from disk, a `Blob` or bytes), `getAnalysis(callId)`,
 * `waitForCompletion(callId, options)`, `getReportHtml(callId)`, `getCall(callId)`,
 * `listCalls({ limit, cursor, status, closer_email, created_from, created_to, min_score, max_score, outcome,
 * call_type })` and `deleteCall(callId)`. In a browser signed in to the portal, `session: true` sends the
 * operations that take a key or the session without a key: the session cookie authenticates them.
 */
import {
  type AnalysisStatusResponse,
  type CallAnalysis,
  CallsightApi,
  ClientId,
  type CreateClientRequest,
  type CreatedClient,
  type CreditBalance,
  type DbHealthResponse,
  type DeletedCall,
  type GrantCreditsRequest,
  type HealthResponse,
  type MetricsResponse,
  type ReadyResponse,
  type UploadAccepted
} from "@callsight/api-spec"
import { FetchHttpClient, type HttpApiGroup, type HttpClient, type OpenApi } from "@effect/platform"
import { Cause, Context, Effect, Exit, Layer, Option, Schema } from "effect"
import type { AudioSource, UploadAudioOptions, WaitForCompletionOptions } from "./Audio.js"
import {
  type CallsightClientOptions,
  type CallsightClientService,
  type CallsPage,
  type ListCallsOptions,
  makeService
} from "./Derive.js"
import { CallsightError, toCallsightError } from "./Errors.js"
import type { RetryOptions } from "./Retry.js"

export class CallsightClient extends Context.Tag("@callsight/client/CallsightClient")<
  CallsightClient,
  CallsightClientService
>() {
  /** Builds the client over the `HttpClient` in context. */
  static readonly make = (options: CallsightClientOptions) => make(options)

  /**
   * The client as a layer that needs nothing: requests go through `FetchHttpClient` (the global
   * `fetch` of Node 20+, browsers, Deno and Bun, or the `FetchHttpClient.Fetch` provided to it),
   * whatever `HttpClient` the surrounding program has. To send through another `HttpClient`
   * (`NodeHttpClient.layerUndici`, one with a proxy or extra headers), use `layerWithoutHttpClient`.
   */
  static readonly layer = (options: CallsightClientOptions): Layer.Layer<CallsightClient> =>
    Layer.effect(CallsightClient, make(options)).pipe(Layer.provide(FetchHttpClient.layer))

  /**
   * The client as a layer over the caller's `HttpClient`, which it requires (`NodeHttpClient.layerUndici`,
   * `FetchHttpClient.layer`, a client of your own): forgetting to provide one is a type error.
   */
  static readonly layerWithoutHttpClient = (
    options: CallsightClientOptions
  ): Layer.Layer<CallsightClient, never, HttpClient.HttpClient> => Layer.effect(CallsightClient, make(options))

  /** @deprecated The same as `CallsightClient.layer`, which now provides `FetchHttpClient` itself. */
  static readonly layerFetch = (options: CallsightClientOptions): Layer.Layer<CallsightClient> =>
    CallsightClient.layer(options)
}

const make = (options: CallsightClientOptions) => makeService(CallsightApi, options)

// ---------------------------------------------------------------------------------------------
// The wire declaration: payloads as JSON, validated by the server only
// ---------------------------------------------------------------------------------------------

/**
 * `CallsightApi` with every payload schema replaced by its encoded side without refinements
 * (`Schema.encodedSchema`): the client sends the JSON it is given and the server, which owns
 * validation, answers 422 `ValidationFailed` with its `detail`. The Promise facade uses it: its
 * callers pass wire JSON (`snake_case`, defaults omitted), not schema class instances.
 */
export const wireApi: typeof CallsightApi = (() => {
  let api: any = CallsightApi
  for (const group of Object.values(CallsightApi.groups) as unknown as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    let wireGroup: any = group
    for (const endpoint of Object.values(group.endpoints)) {
      if (endpoint.payloadSchema._tag === "Some") {
        wireGroup = wireGroup.add(endpoint.setPayload(Schema.encodedSchema(endpoint.payloadSchema.value)))
      }
    }
    if (wireGroup !== group) api = api.add(wireGroup)
  }
  return api
})()

/** The client of `wireApi`. @internal */
export const makeWire = (options: CallsightClientOptions) => makeService(wireApi, options)

// ---------------------------------------------------------------------------------------------
// The Promise facade
// ---------------------------------------------------------------------------------------------


/** Runs a client Effect to a Promise that rejects with a `CallsightError`. */
const runPromise = <A>(effect: Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromiseExit(
    effect.pipe(Effect.catchAll((error) => Effect.flatMap(toCallsightError(error), Effect.fail)))
  ).then((exit) => {
    if (Exit.isSuccess(exit)) return exit.value
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) throw failure.value
    throw new CallsightError({
      tag: Cause.isInterruptedOnly(exit.cause) ? "Interrupted" : "Defect",
      status: undefined,
      body: undefined,
      message: Cause.pretty(exit.cause),
      cause: Cause.squash(exit.cause)
    })
  })

export interface CreateCallsightClientOptions extends RetryOptions {
  /** Where the service answers, e.g. `http://localhost:8080`. */
  readonly baseUrl: string | URL
  /** `X-API-Key` for keyed operations (a tenant key `csk_...`, or the admin key for `admin.*`). */
  readonly apiKey?: string | undefined
  /**
   * In a browser signed in to the portal: without `apiKey`, the operations that also take the
   * portal's session (upload, status, `listCalls`, report, deleting a call) are sent without a key
   * and the session cookie authenticates them (`CallsightClientOptions.session`).
   */
  readonly session?: boolean | undefined
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof globalThis.fetch | undefined
}

/** Wire JSON of a request body (`snake_case`, defaults may be omitted). */
export type Body<S extends Schema.Schema.Any> = Schema.Schema.Encoded<S>
/** A decoded answer. */
export type Answer<S extends Schema.Schema.Any> = Schema.Schema.Type<S>

/** Hands a wire body to the wire client, whose payload types are the declaration's decoded types. */
const wire = <A>(body: unknown): A => body as A

/**
 * The Promise facade for callers who do not use Effect. Each method resolves with the decoded
 * success and rejects with a `CallsightError`. Bodies are wire JSON, validated by the server.
 */
export const createCallsightClient = (options: CreateCallsightClientOptions) => {
  const fetch = options.fetch ?? globalThis.fetch
  const client = Effect.runSync(
    makeWire({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      session: options.session,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      uploadTimeoutMs: options.uploadTimeoutMs
    }).pipe(
      Effect.provide(FetchHttpClient.layer),
      Effect.provideService(FetchHttpClient.Fetch, fetch)
    )
  )
  /** One operation: runs `f` on the client (with this client's `fetch`) and maps its failures. */
  const call = <A>(f: (client: CallsightClientService) => Effect.Effect<A, unknown>): Promise<A> =>
    runPromise(Effect.provideService(f(client), FetchHttpClient.Fetch, fetch))

  return {
    /** The base URL, without a trailing slash. */
    baseUrl: client.baseUrl,
    /** `GET /health`: liveness, version and database connectivity. */
    health: (): Promise<Answer<typeof HealthResponse>> => call((c) => c.probes.health()),
    /** `GET /ready`: 503 (`ServiceUnavailable`) until the database is reachable and migrated. */
    ready: (): Promise<Answer<typeof ReadyResponse>> => call((c) => c.probes.ready()),
    /** `GET /metrics`: request counts and latencies per route. */
    metrics: (): Promise<Answer<typeof MetricsResponse>> => call((c) => c.probes.metrics()),
    /** `GET /health/db`: pool, connections, cap and headroom. */
    dbHealth: (): Promise<Answer<typeof DbHealthResponse>> => call((c) => c.probes.dbHealth()),
    /** `GET /openapi.json`: the OpenAPI 3.1 document. */
    openapi: (): Promise<OpenApi.OpenAPISpec> => call((c) => c.openapi),
    // Audio analysis: needs a tenant key (`csk_...`) as `apiKey`.
    /** `POST /v1/teams/audio`: a path (streamed from disk), a `Blob`/`File` or bytes; answers the 202 body. */
    uploadAudio: (source: AudioSource, options?: UploadAudioOptions): Promise<Answer<typeof UploadAccepted>> =>
      call((c) => c.uploadAudio(source, options)),
    /** `GET /analysis/{call_id}`: status, stage, progress, error, summary. */
    getAnalysis: (callId: string): Promise<Answer<typeof AnalysisStatusResponse>> => call((c) => c.getAnalysis(callId)),
    /** Polls until `completed` or `failed` and resolves with that status; rejects with `WaitTimeout` after `timeoutMs`. */
    waitForCompletion: (callId: string, options?: WaitForCompletionOptions): Promise<Answer<typeof AnalysisStatusResponse>> =>
      call((c) => c.waitForCompletion(callId, options)),
    /** `GET /reports/{call_id}/html`: the HTML report of a completed call (`Conflict` 409 before). */
    getReportHtml: (callId: string): Promise<string> => call((c) => c.getReportHtml(callId)),
    /** `GET /v1/teams/calls/{call_id}`: the whole analysis. */
    getCall: (callId: string): Promise<CallAnalysis> => call((c) => c.getCall(callId)),
    /** `GET /v1/teams/calls`: a page of the tenant's calls, newest first; pass `next_cursor` on. */
    listCalls: (options?: ListCallsOptions): Promise<CallsPage> => call((c) => c.listCalls(options)),
    /** `DELETE /v1/teams/calls/{call_id}`: the call, its audio and all of it gone; its charge stays in the ledger. */
    deleteCall: (callId: string): Promise<Answer<typeof DeletedCall>> => call((c) => c.deleteCall(callId)),
    /** Internal administration: needs the admin key (`ADMIN_API_KEY`) as `apiKey`. */
    admin: {
      /** `POST /v1/internal/admin/clients`: a tenant, its owner and its first API key (shown once). */
      createClient: (body: Body<typeof CreateClientRequest>): Promise<Answer<typeof CreatedClient>> =>
        call((c) => c.extensions.createClient({ payload: wire(body) })),
      /** `POST /v1/internal/admin/clients/{client_id}/credits`: add (or withdraw) credits. */
      grantCredits: (clientId: string, body: Body<typeof GrantCreditsRequest>): Promise<Answer<typeof CreditBalance>> =>
        call((c) => c.extensions.grantCredits({ path: { client_id: ClientId.make(clientId, true) }, payload: wire(body) }))
    }
  }
}

export type CallsightPromiseClient = ReturnType<typeof createCallsightClient>
