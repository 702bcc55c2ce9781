/**
 * The typed client of the Callsight API, derived from the declaration (`CallsightApi`) with
 * `HttpApiClient`: every operation, its parameters, its success and its typed errors come from
 * `@callsight/api-spec`, so the client cannot drift from the server.
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
 * `waitForCompletion(callId, options)`, `getReportHtml(callId)`, `getCall(callId)` and
 * `listCalls({ limit, cursor })`.
 */
import {
  type AnalysisStatusResponse,
  type CallAnalysis,
  CallId,
  type CallListItem,
  CallsightApi,
  ClientId,
  type CreateClientRequest,
  type CreatedClient,
  type CreditBalance,
  type DbHealthResponse,
  type GrantCreditsRequest,
  type HealthResponse,
  type MetricsResponse,
  type ReadyResponse,
  type UploadAccepted
} from "@callsight/api-spec"
import {
  FetchHttpClient,
  HttpApiClient,
  type HttpApi,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiSchema,
  HttpBody,
  HttpClient,
  HttpClientError as HttpClientErrors,
  type HttpClientError,
  HttpClientRequest,
  HttpClientResponse,
  type OpenApi
} from "@effect/platform"
import { Cause, Context, Data, Effect, Either, Exit, Layer, Option, ParseResult, Redacted, Schema, SchemaAST } from "effect"
import type { Brand } from "effect/Brand"
import type { Simplify } from "effect/Types"
import {
  type AudioSource,
  type AudioSourceError,
  multipartBody,
  openAudio,
  type UploadAudioOptions,
  uploadFields,
  waitForCompletion,
  type WaitForCompletionOptions,
  type WaitTimeout
} from "./Audio.js"
import { IDEMPOTENCY_KEY_HEADER, RequestTimeout, resilient, type RetryOptions } from "./Retry.js"

// ---------------------------------------------------------------------------------------------
// Types: the derived client with the key filled in
// ---------------------------------------------------------------------------------------------

/** The header every keyed operation declares (`ApiKeyHeaders` in api-spec). */
export const API_KEY_HEADER = "x-api-key"

type ApiKeyHeader = { readonly "x-api-key": string }

/**
 * A keyed operation was called on a client without an API key: it fails with this before any
 * request is sent (the Promise facade rejects with a `CallsightError` of tag `"MissingApiKey"`).
 */
export class MissingApiKey extends Data.TaggedError("MissingApiKey")<{
  readonly message: string
  /** The operation, e.g. `extensions.listCalls`. */
  readonly operation: string
}> {}

const missingApiKey = (operation: string) =>
  new MissingApiKey({
    operation,
    message: `no API key: pass apiKey when you create the client (${operation} sends it in the X-API-Key header)`
  })

/** The operations that declare the `x-api-key` header: `group.endpoint`, or `endpoint` for top-level groups. */
const KEYED_OPERATIONS: ReadonlySet<string> = new Set(
  (Object.values(CallsightApi.groups) as unknown as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>).flatMap((group) =>
    Object.values(group.endpoints).flatMap((endpoint) =>
      Option.isSome(endpoint.headersSchema) &&
        SchemaAST.getPropertySignatures(endpoint.headersSchema.value.ast).some((p) => p.name === API_KEY_HEADER && !p.isOptional)
        ? [group.topLevel ? endpoint.name : `${group.identifier}.${endpoint.name}`]
        : []
    )
  )
)

/**
 * The operations that declare an optional `idempotency-key` header (the audio upload): the client
 * sends a fresh key when the caller gives none, so that retrying them can never make two calls.
 */
const IDEMPOTENT_KEY_OPERATIONS: ReadonlySet<string> = new Set(
  (Object.values(CallsightApi.groups) as unknown as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>).flatMap((group) =>
    Object.values(group.endpoints).flatMap((endpoint) =>
      Option.isSome(endpoint.headersSchema) &&
        SchemaAST.getPropertySignatures(endpoint.headersSchema.value.ast).some((p) => p.name === IDEMPOTENCY_KEY_HEADER)
        ? [group.topLevel ? endpoint.name : `${group.identifier}.${endpoint.name}`]
        : []
    )
  )
)

/** A new `Idempotency-Key` (a random UUID). */
const newIdempotencyKey = (): string => globalThis.crypto.randomUUID()

type ApiGroups = typeof CallsightApi extends HttpApi.HttpApi<infer _Id, infer Groups, infer _E, infer _R> ? Groups : never
type ApiErrors = typeof CallsightApi extends HttpApi.HttpApi<infer _Id, infer _Groups, infer E, infer _R> ? E : never

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T]

/** `headers`: without `x-api-key` (the client fills it), optional when nothing else is required. */
type HeadersField<H> = [H] extends [never] ? {}
  : H extends ApiKeyHeader ? (
      [RequiredKeys<Omit<H, "x-api-key">>] extends [never]
        ? { readonly headers?: Simplify<Omit<H, "x-api-key"> & { readonly "x-api-key"?: string }> }
        : { readonly headers: Simplify<Omit<H, "x-api-key"> & { readonly "x-api-key"?: string }> }
    )
  : { readonly headers: H }

/** `urlParams`: optional when every parameter is. */
type UrlParamsField<U> = [U] extends [never] ? {}
  : [RequiredKeys<U>] extends [never] ? { readonly urlParams?: U }
  : { readonly urlParams: U }

type PayloadField<Payload> = [Payload] extends [never] ? {}
  : Payload extends infer P ? P extends Brand<HttpApiSchema.MultipartTypeId> | Brand<HttpApiSchema.MultipartStreamTypeId>
      ? { readonly payload: FormData }
    : { readonly payload: P }
  : { readonly payload: Payload }

/** What a keyed method takes: the platform's `ClientRequest`, minus the key, with optional parts optional. */
export type KeyedRequest<Path, UrlParams, Payload, Headers, WithResponse extends boolean> = (
  & ([Path] extends [void] ? {} : { readonly path: Path })
  & UrlParamsField<UrlParams>
  & HeadersField<Headers>
  & PayloadField<Payload>
) extends infer Req ? [RequiredKeys<Req>] extends [never] ? void | (Req & { readonly withResponse?: WithResponse })
  : Req & { readonly withResponse?: WithResponse }
  : never

export type KeyedMethod<Endpoint, E, GroupError, R> = [Endpoint] extends [
  HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer _Path,
    infer _UrlParams,
    infer _Payload,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  >
] ? <WithResponse extends boolean = false>(
    request: Simplify<KeyedRequest<_Path, _UrlParams, _Payload, _Headers, WithResponse>>
  ) => Effect.Effect<
    WithResponse extends true ? [_Success, HttpClientResponse.HttpClientResponse] : _Success,
    | _Error
    | GroupError
    | E
    | HttpClientError.HttpClientError
    | ParseResult.ParseError
    | (_Headers extends ApiKeyHeader ? MissingApiKey : never)
  > :
  never

export type KeyedGroup<Groups extends HttpApiGroup.HttpApiGroup.Any, GroupName extends Groups["identifier"], E, R> =
  [HttpApiGroup.HttpApiGroup.WithName<Groups, GroupName>] extends
    [HttpApiGroup.HttpApiGroup<infer _GroupName, infer _Endpoints, infer _GroupError, infer _GroupErrorR>] ? {
      readonly [Endpoint in _Endpoints as HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>]: KeyedMethod<
        Endpoint,
        E,
        _GroupError,
        R
      >
    } :
    never

/** `HttpApiClient.Client` of an API whose keyed operations take their key from the client. */
export type KeyedClient<Groups extends HttpApiGroup.HttpApiGroup.Any, E, R> = Simplify<
  & {
    readonly [Group in Extract<Groups, { readonly topLevel: false }> as HttpApiGroup.HttpApiGroup.Name<Group>]:
      KeyedGroup<Group, Group["identifier"], E, R>
  }
  & {
    readonly [Method in TopLevelMethods<Groups, E, R> as Method[0]]: Method[1]
  }
>

type TopLevelMethods<Groups extends HttpApiGroup.HttpApiGroup.Any, E, R> =
  Extract<Groups, { readonly topLevel: true }> extends
    HttpApiGroup.HttpApiGroup<infer _Id, infer _Endpoints, infer _Error, infer _ErrorR, infer _TopLevel> ?
    _Endpoints extends infer Endpoint ? [HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>, KeyedMethod<Endpoint, E, _Error, R>]
    : never :
    never

/** The Callsight API, every operation, with the key of the layer filled in. */
export type CallsightApiClient = KeyedClient<ApiGroups, ApiErrors, never>

/** The client exactly as `HttpApiClient.make(CallsightApi)` derives it (keyed operations need `headers`). */
export type CallsightRawClient = HttpApiClient.Client<ApiGroups, ApiErrors, never>

const makeRaw = (baseUrl: string, options: RetryOptions): Effect.Effect<CallsightRawClient, never, HttpClient.HttpClient> =>
  HttpApiClient.make(CallsightApi, { baseUrl, transformClient: (client) => resilient(client, options) })

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

export interface CallsightClientOptions extends RetryOptions {
  /** Where the service answers, e.g. `http://localhost:8080` (a path prefix such as `/reporting` is kept). */
  readonly baseUrl: string | URL
  /** `X-API-Key` for keyed operations: a tenant key (`csk_...`) or a staff key. */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
}

type ErrorOf<M> = M extends (...args: ReadonlyArray<any>) => Effect.Effect<infer _A, infer E, infer _R> ? E : never

/** What an operation of the derived client can fail with. */
export type UploadAudioError = ErrorOf<CallsightApiClient["audio"]["uploadAudio"]> | AudioSourceError
export type GetAnalysisError = ErrorOf<CallsightApiClient["audio"]["getAnalysis"]>
export type GetReportHtmlError = ErrorOf<CallsightApiClient["audio"]["getReportHtml"]>
export type GetCallError = ErrorOf<CallsightApiClient["extensions"]["getCall"]>
export type ListCallsError = ErrorOf<CallsightApiClient["extensions"]["listCalls"]>

export interface ListCallsOptions {
  /** 1–200 calls per page (default 50). */
  readonly limit?: number | undefined
  /** `next_cursor` of the previous page. */
  readonly cursor?: string | undefined
}

export interface CallsPage {
  readonly calls: ReadonlyArray<typeof CallListItem.Type>
  /** The cursor of the next page; `null` on the last one. */
  readonly next_cursor: string | null
}

/** The audio-analysis helpers, with the client's key (a tenant key). */
export interface CallsightAudioMethods {
  /**
   * `POST /v1/teams/audio`: uploads a recording (multipart `audio`, `external_call_id`,
   * `closer_email`; header `Idempotency-Key`) and answers the 202 body. A path is streamed from
   * disk; a `Blob` or bytes are sent as they are. `onProgress` reports the bytes sent.
   */
  readonly uploadAudio: (
    source: AudioSource,
    options?: UploadAudioOptions
  ) => Effect.Effect<typeof UploadAccepted.Type, UploadAudioError>
  /** `GET /analysis/{call_id}`: status, stage, progress, error and summary. */
  readonly getAnalysis: (callId: string) => Effect.Effect<typeof AnalysisStatusResponse.Type, GetAnalysisError>
  /**
   * Polls `getAnalysis` with a growing pause until the analysis is `completed` or `failed` and
   * answers that status (read `error.code` of a failed one); `WaitTimeout` after `timeoutMs`.
   */
  readonly waitForCompletion: (
    callId: string,
    options?: WaitForCompletionOptions
  ) => Effect.Effect<typeof AnalysisStatusResponse.Type, GetAnalysisError | WaitTimeout>
  /** `GET /reports/{call_id}/html`: the HTML report of a completed call (`Conflict` before). */
  readonly getReportHtml: (callId: string) => Effect.Effect<string, GetReportHtmlError>
  /** `GET /v1/teams/calls/{call_id}`: the whole analysis as JSON. */
  readonly getCall: (callId: string) => Effect.Effect<CallAnalysis, GetCallError>
  /** `GET /v1/teams/calls`: the tenant's calls, newest first, a page at a time. */
  readonly listCalls: (options?: ListCallsOptions) => Effect.Effect<CallsPage, ListCallsError>
}

export interface CallsightClientService extends CallsightApiClient, CallsightAudioMethods {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string
  /** The same client with another key. */
  readonly withApiKey: (apiKey: string | Redacted.Redacted<string>) => CallsightClientService
  /** `{ "x-api-key": key }` for the raw client (empty without a key). */
  readonly headers: { readonly "x-api-key"?: string }
  /** The derived client as the platform makes it. */
  readonly raw: CallsightRawClient
  /** `GET /openapi.json`: the OpenAPI 3.1 document the server publishes. */
  readonly openapi: Effect.Effect<OpenApi.OpenAPISpec, HttpClientError.HttpClientError>
}

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

/** The base URL as the client uses it: a URL, without a trailing slash. */
export const normalizeBaseUrl = (baseUrl: string | URL): string => {
  const url = new URL(baseUrl.toString())
  return url.toString().replace(/\/+$/, "")
}

/** The key as a string; undefined when none (or a blank one) was given. */
const keyValue = (apiKey: string | Redacted.Redacted<string> | undefined): string | undefined => {
  const key = apiKey === undefined ? undefined : Redacted.isRedacted(apiKey) ? Redacted.value(apiKey) : apiKey
  return key === undefined || key.trim() === "" ? undefined : key
}

/**
 * Fills what a keyed request leaves out: the `x-api-key` header (a header the caller gives wins)
 * and empty `urlParams` when every parameter is optional.
 */
const completeRequest = (apiKey: string | undefined) => (request: any) => {
  const given = request ?? {}
  const headers = Object.fromEntries(Object.entries(given.headers ?? {}).filter(([, v]) => v !== undefined))
  return {
    ...given,
    urlParams: given.urlParams ?? {},
    headers: apiKey === undefined ? headers : { [API_KEY_HEADER]: apiKey, ...headers }
  }
}

/** Wraps every method of a derived client (groups and top-level methods) with `completeRequest`. */
export const keyed = (raw: object, apiKey: string | undefined): any => {
  const fill = completeRequest(apiKey)
  // a keyed operation without a key fails here, with a plain message, before anything is sent
  const wrap = (operation: string, method: (request: unknown) => unknown) => (request?: unknown) => {
    const filled = fill(request)
    // drawn when the method is called: running the Effect again (a retry of the caller's) sends the same key
    if (IDEMPOTENT_KEY_OPERATIONS.has(operation) && filled.headers[IDEMPOTENCY_KEY_HEADER] === undefined) {
      filled.headers = { ...filled.headers, [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() }
    }
    return KEYED_OPERATIONS.has(operation) && filled.headers[API_KEY_HEADER] === undefined
      ? Effect.fail(missingApiKey(operation))
      : method(filled)
  }
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [
      name,
      typeof value === "function"
        ? wrap(name, value)
        : Object.fromEntries(Object.entries(value as object).map(([endpoint, method]) => [endpoint, wrap(`${name}.${endpoint}`, method)]))
    ])
  )
}

/**
 * The client over an already derived one (the facade derives its own from the wire declaration).
 * @internal
 */
export const makeFrom = (
  raw: object,
  httpClient: HttpClient.HttpClient,
  options: CallsightClientOptions
): CallsightClientService => {
  const baseUrl = normalizeBaseUrl(options.baseUrl)
  const apiKey = keyValue(options.apiKey)
  const openapi = httpClient.get(`${baseUrl}/openapi.json`, { acceptJson: true }).pipe(
    Effect.flatMap(HttpClientResponse.filterStatusOk),
    Effect.flatMap((response) => response.json),
    Effect.map((json) => json as OpenApi.OpenAPISpec)
  )
  const client: CallsightApiClient = keyed(raw, apiKey)
  return {
    ...client,
    ...audioMethods(client, httpClient, baseUrl, apiKey),
    baseUrl,
    withApiKey: (key) => makeFrom(raw, httpClient, { ...options, apiKey: key }),
    headers: apiKey === undefined ? {} : { [API_KEY_HEADER]: apiKey },
    raw: raw as CallsightRawClient,
    openapi
  }
}

/** The default page size of `GET /v1/teams/calls` (the declaration's default). */
const DEFAULT_LIST_LIMIT = 50

/** An id as a caller passes it; the request's schema checks it as the request is encoded. */
const asCallId = (id: string) => CallId.make(id, true)

const audioMethods = (
  client: CallsightApiClient,
  httpClient: HttpClient.HttpClient,
  baseUrl: string,
  apiKey: string | undefined
): CallsightAudioMethods => {
  const getAnalysis = (callId: string) => client.audio.getAnalysis({ path: { call_id: asCallId(callId) } })
  return {
    uploadAudio: (source, options = {}) => {
      // one key per call of uploadAudio, drawn now: every attempt (and a rerun of the Effect) sends it
      const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey()
      return Effect.gen(function* () {
        if (apiKey === undefined) return yield* missingApiKey("audio.uploadAudio")
        const audio = yield* openAudio(source, options.filename)
        const body = multipartBody(audio, uploadFields(options), options.onProgress)
        // The operation as the declaration derives it, over a client that sends the streamed
        // body in place of the (empty) form it is given: the answer is decoded as for any other.
        const upload = yield* HttpApiClient.endpoint(CallsightApi, {
          group: "audio",
          endpoint: "uploadAudio",
          baseUrl,
          httpClient: HttpClient.mapRequest(
            httpClient,
            HttpClientRequest.setBody(HttpBody.stream(body.stream, body.contentType, body.length))
          )
        })
        return yield* upload(
          completeRequest(apiKey)({ payload: new FormData(), headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } })
        )
      })
    },
    getAnalysis,
    waitForCompletion: (callId, options) => waitForCompletion(getAnalysis, callId, options),
    getReportHtml: (callId) => client.audio.getReportHtml({ path: { call_id: asCallId(callId) } }),
    getCall: (callId) => client.extensions.getCall({ path: { call_id: asCallId(callId) } }),
    listCalls: (options = {}) =>
      client.extensions.listCalls({
        urlParams: { limit: options.limit ?? DEFAULT_LIST_LIMIT, ...(options.cursor === undefined ? {} : { cursor: options.cursor }) }
      })
  }
}

const make = (options: CallsightClientOptions): Effect.Effect<CallsightClientService, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const baseUrl = normalizeBaseUrl(options.baseUrl)
    const raw = yield* makeRaw(baseUrl, options)
    const httpClient = resilient(yield* HttpClient.HttpClient, options)
    return makeFrom(raw, httpClient, options)
  })

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
export const makeWire = (options: CallsightClientOptions): Effect.Effect<CallsightClientService, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const baseUrl = normalizeBaseUrl(options.baseUrl)
    const raw = yield* HttpApiClient.make(wireApi, { baseUrl, transformClient: (client) => resilient(client, options) })
    const httpClient = resilient(yield* HttpClient.HttpClient, options)
    return makeFrom(raw, httpClient, options)
  })

// ---------------------------------------------------------------------------------------------
// The Promise facade
// ---------------------------------------------------------------------------------------------

/**
 * Every failure of the Promise facade. `tag` is the typed error's `_tag` when the service answered
 * with a declared error (`"Unauthorized"`, `"ValidationFailed"`, `"NotFound"`, ...), and otherwise:
 * - `"TransportError"`: no answer (connection refused, DNS, reset, aborted);
 * - `"Timeout"`: no answer within `timeoutMs` (`uploadTimeoutMs` for an upload), retries included;
 * - `"UnexpectedStatus"`: an answer with a status the declaration does not list for the operation;
 * - `"DecodeError"`: an answer whose body does not match the declaration, or an argument that does
 *   not (the client checks path and query parameters before sending: `limit: 500`);
 * - `"RequestError"`: the request could not be made (a body that cannot be encoded, an invalid URL);
 * - `"MissingApiKey"`: a keyed operation on a client created without `apiKey` (nothing was sent);
 * - `"AudioSourceError"`: the file to upload could not be read (no such file, a directory, ...);
 * - `"WaitTimeout"`: `waitForCompletion` gave up (`body.last` is the last status it read);
 * - `"Interrupted"`: the run was interrupted;
 * - `"Defect"`: a bug in the client.
 *
 * The README of the package has the table of every tag, when it happens and what to do.
 */
export class CallsightError extends Error {
  override readonly name = "CallsightError"
  /** The typed error's `_tag`, or one of the client's own tags above. */
  readonly tag: string
  /** The HTTP status of the answer; `undefined` when there was none. */
  readonly status: number | undefined
  /** The decoded body of the answer (`{ _tag, message }`, `{ _tag, detail }`, ...) or its text. */
  readonly body: unknown

  /**
   * `message` says what happened, without the tag (it is in `tag`): `no call call_x`, not
   * `NotFound: no call call_x`. The tag is named once where the error is printed, as Node.js names
   * the code of its own errors: `CallsightError [NotFound]: no call call_x` (`toString()` and the
   * first line of `stack`).
   */
  constructor(options: {
    readonly tag: string
    readonly status: number | undefined
    readonly body: unknown
    readonly message: string
    readonly cause?: unknown
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause })
    this.tag = options.tag
    this.status = options.status
    this.body = options.body
    // the stack's first line is written when it is first read, from `name`: with the tag, once
    const self = this as { name: string }
    self.name = `CallsightError [${options.tag}]`
    void this.stack
    self.name = "CallsightError"
  }

  override toString(): string {
    return `${this.name} [${this.tag}]: ${this.message}`
  }
}

export const isCallsightError = (u: unknown): u is CallsightError => u instanceof CallsightError

const describeBody = (body: unknown): string => {
  if (typeof body !== "object" || body === null) return typeof body === "string" && body !== "" ? body : ""
  const b = body as { message?: unknown; detail?: unknown }
  if (typeof b.message === "string") return b.message
  if (Array.isArray(b.detail)) {
    return b.detail
      .map((d: { loc?: Array<unknown>; msg?: unknown }) => `${(d.loc ?? []).join(".")}: ${String(d.msg)}`)
      .join("; ")
  }
  return ""
}

/** The HTTP status an error class of the declaration is answered with. */
const declaredStatus = (error: object): number | undefined => {
  const ctor = (error as { constructor?: unknown }).constructor
  return Schema.isSchema(ctor) ? HttpApiSchema.getStatusError(ctor) : undefined
}

const encodedError = (error: object): unknown => {
  const ctor = (error as { constructor?: unknown }).constructor
  if (Schema.isSchema(ctor)) {
    const encoded = Schema.encodeUnknownEither(ctor as Schema.Schema<unknown, unknown, never>)(error)
    if (Either.isRight(encoded)) return encoded.right
  }
  // a `Data.TaggedError` (the client's own): its `_tag` is inherited and its `message` not enumerable
  const { _tag, message } = error as { _tag?: unknown; message?: unknown }
  return { _tag, ...(typeof message === "string" ? { message } : {}), ...error }
}

const readBody = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<unknown> =>
  response.text.pipe(
    Effect.map((text) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        return text
      }
    }),
    Effect.orElseSucceed(() => undefined)
  )

/** The messages of an error and its causes: `fetch failed: connect ECONNREFUSED 127.0.0.1:8080`. */
const causes = (error: unknown): string => {
  const messages: Array<string> = []
  for (let e = error; e instanceof Error && messages.length < 4; e = e.cause) {
    if (e.message !== "" && !messages.includes(e.message)) messages.push(e.message)
  }
  return messages.join(": ")
}

/** Any failure of a client Effect as a `CallsightError`. */
export const toCallsightError = (error: unknown): Effect.Effect<CallsightError> => {
  if (error instanceof CallsightError) return Effect.succeed(error)
  if (error instanceof MissingApiKey) {
    return Effect.succeed(
      new CallsightError({ tag: error._tag, status: undefined, body: undefined, message: error.message, cause: error })
    )
  }
  if (ParseResult.isParseError(error)) {
    return Effect.succeed(
      new CallsightError({ tag: "DecodeError", status: undefined, body: undefined, message: error.message, cause: error })
    )
  }
  if (HttpClientErrors.isHttpClientError(error)) {
    if (error._tag === "RequestError") {
      const tag = error.cause instanceof RequestTimeout
        ? "Timeout"
        : error.reason === "Transport"
        ? "TransportError"
        : "RequestError"
      return Effect.succeed(
        new CallsightError({
          tag,
          status: undefined,
          body: undefined,
          message: `${error.request.method} ${error.request.url}: ${causes(error.cause) || error.description || error.reason}`,
          cause: error
        })
      )
    }
    const response = error.response
    return Effect.map(readBody(response), (body) => {
      // the derived client answers a status the operation does not declare as a `Decode` error
      // without a cause (a body that could not be read has one)
      const tag = error.reason === "StatusCode" || (error.reason === "Decode" && error.cause === undefined)
        ? "UnexpectedStatus"
        : "DecodeError"
      const text = describeBody(body)
      return new CallsightError({
        tag,
        status: response.status,
        body,
        message: `${response.status} ${error.request.method} ${error.request.url}${text === "" ? "" : `: ${text}`}`,
        cause: error
      })
    })
  }
  if (typeof error === "object" && error !== null && typeof (error as { _tag?: unknown })._tag === "string") {
    const tag = (error as { _tag: string })._tag
    const body = encodedError(error)
    const status = declaredStatus(error)
    const text = describeBody(body)
    return Effect.succeed(
      new CallsightError({
        tag,
        status,
        body,
        // the tag is `tag`: the message is the error's own text (or, without one, what was answered)
        message: text !== "" ? text : status === undefined ? "no message" : `answered ${status} without a message`,
        cause: error
      })
    )
  }
  return Effect.succeed(
    new CallsightError({ tag: "Defect", status: undefined, body: undefined, message: String(error), cause: error })
  )
}

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
