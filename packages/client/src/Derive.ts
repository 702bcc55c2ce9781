/**
 * The client over an API made of Callsight's groups, derived with `HttpApiClient`:
 * `CallsightClient` (Client.ts) derives it from the whole declaration, `CallsightApi`; the
 * `callsight` CLI from the groups a command uses (`deriveClient(withApiErrors(HttpApi.make(...)
 * .add(AudioApi)), options)`), so that a command reads the declarations of its own operations
 * and starts at once (packages/cli, docs/architecture.md "The CLI's start"). Nothing here refers
 * to `CallsightApi` but its type: a bundle that imports this module alone does not load the
 * other groups.
 */
import type {
  AnalysisStatus,
  AnalysisStatusResponse,
  CallTypeName,
  CallAnalysis,
  CallListItem,
  CallsightApi,
  DeletedCall,
  UploadAccepted
} from "@callsight/api-spec"
import { CallId } from "@callsight/api-spec"
import {
  type HttpApi,
  HttpApiClient,
  type HttpApiEndpoint,
  type HttpApiGroup,
  type HttpApiSchema,
  HttpBody,
  HttpClient,
  type HttpClientError,
  HttpClientRequest,
  HttpClientResponse,
  Headers,
  type OpenApi
} from "@effect/platform"
import { Data, Effect, Option, type ParseResult, Redacted, SchemaAST } from "effect"
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
import { IDEMPOTENCY_KEY_HEADER, resilient, type RetryOptions } from "./Retry.js"

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

/**
 * The operations of an API, `group.endpoint` (or `endpoint` for top-level groups), whose headers pass
 * `test`: the headers as the caller gives them, or (`encoded`) as they go on the wire.
 */
const operationsWith = (api: HttpApi.HttpApi.Any, test: (header: SchemaAST.PropertySignature) => boolean, encoded = false) =>
  new Set(
    (Object.values((api as unknown as HttpApi.HttpApi.AnyWithProps).groups) as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>)
      .flatMap((group) =>
        Object.values(group.endpoints).flatMap((endpoint) =>
          Option.isSome(endpoint.headersSchema) &&
            SchemaAST.getPropertySignatures(
              encoded ? SchemaAST.encodedAST(endpoint.headersSchema.value.ast) : endpoint.headersSchema.value.ast
            ).some(test)
            ? [group.topLevel ? endpoint.name : `${group.identifier}.${endpoint.name}`]
            : []
        )
      )
  )

interface Operations {
  /** The operations that declare the `x-api-key` header. */
  readonly keyed: ReadonlySet<string>
  /**
   * The keyed operations whose key is optional on the wire (`ApiKeyOrSessionHeaders`): the portal's
   * session may stand for it. A client made with `session: true` sends them without a key.
   */
  readonly orSession: ReadonlySet<string>
  /**
   * The operations that declare an optional `idempotency-key` header (the audio upload): the
   * client sends a fresh key when the caller gives none, so that retrying them can never make two calls.
   */
  readonly idempotent: ReadonlySet<string>
}

const operationsByApi = new WeakMap<object, Operations>()

/** The keyed and the idempotent operations of `api`, read from its declaration once. */
const operationsOf = (api: HttpApi.HttpApi.Any): Operations => {
  let operations = operationsByApi.get(api)
  if (operations === undefined) {
    operations = {
      keyed: operationsWith(api, (p) => p.name === API_KEY_HEADER && !p.isOptional),
      orSession: operationsWith(api, (p) => p.name === API_KEY_HEADER && p.isOptional, true),
      idempotent: operationsWith(api, (p) => p.name === IDEMPOTENCY_KEY_HEADER)
    }
    operationsByApi.set(api, operations)
  }
  return operations
}

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

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

export interface CallsightClientOptions extends RetryOptions {
  /** Where the service answers, e.g. `http://localhost:8080` (a path prefix such as `/reporting` is kept). */
  readonly baseUrl: string | URL
  /** `X-API-Key` for keyed operations: a tenant key (`csk_...`) or a staff key. */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
  /**
   * The client runs in a browser signed in to the portal (the web app, same origin): without
   * `apiKey`, the operations that take a tenant key or the portal's session (the upload, its status
   * and `waitForCompletion`, `listCalls`, the report, a call's audio, deleting a call) are sent
   * without a key, and the browser's `callsight_session` cookie authenticates them; operations that
   * take only a key still fail with `MissingApiKey`. Default false: a client without a key (and
   * without a browser's cookie) fails those with `MissingApiKey` before sending anything.
   */
  readonly session?: boolean | undefined
}

type ErrorOf<M> = M extends (...args: ReadonlyArray<any>) => Effect.Effect<infer _A, infer E, infer _R> ? E : never

/** What an operation of the derived client can fail with. */
export type UploadAudioError = ErrorOf<CallsightApiClient["audio"]["uploadAudio"]> | AudioSourceError
export type GetAnalysisError = ErrorOf<CallsightApiClient["audio"]["getAnalysis"]>
export type GetReportHtmlError = ErrorOf<CallsightApiClient["audio"]["getReportHtml"]>
export type GetCallError = ErrorOf<CallsightApiClient["extensions"]["getCall"]>
export type ListCallsError = ErrorOf<CallsightApiClient["extensions"]["listCalls"]>
export type DeleteCallError = ErrorOf<CallsightApiClient["extensions"]["deleteCall"]>

/**
 * A page of `listCalls` and its filters, combined with AND (`ListCallsQuery` in the declaration).
 * Ask the next page with the same filters and the previous page's `next_cursor`.
 */
export interface ListCallsOptions {
  /** 1–200 calls per page (default 50). */
  readonly limit?: number | undefined
  /** `next_cursor` of the previous page. */
  readonly cursor?: string | undefined
  /** Only calls in this status. */
  readonly status?: AnalysisStatus | undefined
  /** Only this closer's calls (any case). */
  readonly closer_email?: string | undefined
  /** Uploaded at or after this ISO-8601 time (a date: its midnight, UTC). */
  readonly created_from?: string | undefined
  /** Uploaded at or before this ISO-8601 time (a date: the whole day, UTC). */
  readonly created_to?: string | undefined
  /** Analysed, with an overall score of at least this (0–100). */
  readonly min_score?: number | undefined
  /** Analysed, with an overall score of at most this (0–100). */
  readonly max_score?: number | undefined
  /** Only calls whose outcome record says this; `none`: calls without an outcome record. */
  readonly outcome?: "won" | "lost" | "no_decision" | "open" | "none" | undefined
  /** Analysed calls of this type (given at upload, else detected). */
  readonly call_type?: typeof CallTypeName.Type | undefined
}

export interface CallsPage {
  readonly calls: ReadonlyArray<typeof CallListItem.Type>
  /** The cursor of the next page; `null` on the last one. */
  readonly next_cursor: string | null
}

/** The audio-analysis helpers (the `audio` group), with the client's key (a tenant key). */
export interface AudioMethods {
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
}

/** The helpers over the tenant's calls (the `extensions` group), with the client's key. */
export interface CallsMethods {
  /** `GET /v1/teams/calls/{call_id}`: the whole analysis as JSON. */
  readonly getCall: (callId: string) => Effect.Effect<CallAnalysis, GetCallError>
  /** `GET /v1/teams/calls`: the tenant's calls, newest first, a page at a time. */
  readonly listCalls: (options?: ListCallsOptions) => Effect.Effect<CallsPage, ListCallsError>
  /** `DELETE /v1/teams/calls/{call_id}`: the call, its audio and all of it gone; its charge stays in the ledger. */
  readonly deleteCall: (callId: string) => Effect.Effect<typeof DeletedCall.Type, DeleteCallError>
}

/** The audio-analysis helpers, with the client's key (a tenant key). */
export interface CallsightAudioMethods extends AudioMethods, CallsMethods {}

/** What a derived client has beside its operations and helpers. */
export interface ClientBase {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string
  /** `{ "x-api-key": key }` for the raw client (empty without a key). */
  readonly headers: { readonly "x-api-key"?: string }
  /** `GET /openapi.json`: the OpenAPI 3.1 document the server publishes. */
  readonly openapi: Effect.Effect<OpenApi.OpenAPISpec, HttpClientError.HttpClientError>
}

export interface CallsightClientService extends CallsightApiClient, CallsightAudioMethods, ClientBase {
  /** The same client with another key. */
  readonly withApiKey: (apiKey: string | Redacted.Redacted<string>) => CallsightClientService
  /** The derived client as the platform makes it. */
  readonly raw: CallsightRawClient
}

/**
 * The client of an API of some of Callsight's groups (`deriveClient`): their operations with the
 * key filled in, and the helpers of the groups it has (`audio`: `AudioMethods`; `extensions`:
 * `CallsMethods`).
 */
export type DerivedClient<Groups extends HttpApiGroup.HttpApiGroup.Any, E> =
  & KeyedClient<Groups, E, never>
  & ClientBase
  & ("audio" extends Groups["identifier"] ? AudioMethods : {})
  & ("extensions" extends Groups["identifier"] ? CallsMethods : {})

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
 * The `x-api-key` a client of the portal's session (`session: true`, no key) puts in the request of
 * an operation that takes the key or the session: empty, as the declaration reads a missing key; it
 * is taken off the request before it is sent (`withoutEmptyKey`), so the session cookie decides.
 */
const SESSION_KEY = ""

/** The request without an empty `x-api-key` header (a session client's, `SESSION_KEY`). */
const withoutEmptyKey = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.mapRequest(client, (request) =>
    request.headers[API_KEY_HEADER] === SESSION_KEY
      // (setting headers merges them: the request is made again, without the header)
      ? HttpClientRequest.make(request.method)(request.url, {
        urlParams: request.urlParams,
        hash: Option.getOrUndefined(request.hash),
        headers: Headers.remove(request.headers, API_KEY_HEADER),
        body: request.body
      })
      : request)

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

/**
 * The key an operation is sent with: the client's; for a session client without one, `SESSION_KEY`
 * on the operations the session may call; else none.
 */
const keyFor = (api: HttpApi.HttpApi.Any, apiKey: string | undefined, session: boolean) => (operation: string) =>
  apiKey ?? (session && operationsOf(api).orSession.has(operation) ? SESSION_KEY : undefined)

/** Wraps every method of a derived client of `api` (groups and top-level methods) with `completeRequest`. */
const keyed = (raw: object, apiKey: string | undefined, api: HttpApi.HttpApi.Any, session: boolean): any => {
  const operations = operationsOf(api)
  const keyOf = keyFor(api, apiKey, session)
  // a keyed operation without a key fails here, with a plain message, before anything is sent
  const wrap = (operation: string, method: (request: unknown) => unknown) => (request?: unknown) => {
    const filled = completeRequest(keyOf(operation))(request)
    // drawn when the method is called: running the Effect again (a retry of the caller's) sends the same key
    if (operations.idempotent.has(operation) && filled.headers[IDEMPOTENCY_KEY_HEADER] === undefined) {
      filled.headers = { ...filled.headers, [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() }
    }
    return operations.keyed.has(operation) && filled.headers[API_KEY_HEADER] === undefined
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

/** The keyed operations, the helpers of the groups there are and the base, over a client of `api` derived already. */
const derivedFrom = (
  api: HttpApi.HttpApi.Any,
  raw: object,
  httpClient: HttpClient.HttpClient,
  options: CallsightClientOptions
): any => {
  const baseUrl = normalizeBaseUrl(options.baseUrl)
  const apiKey = keyValue(options.apiKey)
  const openapi = httpClient.get(`${baseUrl}/openapi.json`, { acceptJson: true }).pipe(
    Effect.flatMap(HttpClientResponse.filterStatusOk),
    Effect.flatMap((response) => response.json),
    Effect.map((json) => json as OpenApi.OpenAPISpec)
  )
  const session = options.session === true
  const client = keyed(raw, apiKey, api, session)
  return {
    ...client,
    // the upload's key: the client's, or a session client's empty one
    ...("audio" in client ? audioMethods(api, client, httpClient, baseUrl, keyFor(api, apiKey, session)("audio.uploadAudio")) : {}),
    ...("extensions" in client ? callsMethods(client) : {}),
    baseUrl,
    headers: apiKey === undefined ? {} : { [API_KEY_HEADER]: apiKey },
    openapi
  } satisfies ClientBase
}

/** The whole service over a client of `api` derived already. */
const makeFrom = (
  api: typeof CallsightApi,
  raw: object,
  httpClient: HttpClient.HttpClient,
  options: CallsightClientOptions
): CallsightClientService => ({
  ...derivedFrom(api, raw, httpClient, options),
  withApiKey: (key) => makeFrom(api, raw, httpClient, { ...options, apiKey: key }),
  raw: raw as CallsightRawClient
})

/**
 * The client `HttpApiClient` derives from `api` and the `HttpClient` of the helpers, both with the
 * retries and time limits of Retry.ts.
 */
const derive = (api: HttpApi.HttpApi.Any, options: CallsightClientOptions) =>
  Effect.gen(function* () {
    // Callsight's groups declare no client middleware: the derivation needs the HttpClient alone
    const raw = yield* (HttpApiClient.make(api as HttpApi.HttpApi.AnyWithProps, {
      baseUrl: normalizeBaseUrl(options.baseUrl),
      transformClient: (client) => resilient(withoutEmptyKey(client), options)
    }) as Effect.Effect<object, never, HttpClient.HttpClient>)
    return { raw, httpClient: resilient(withoutEmptyKey(yield* HttpClient.HttpClient), options) }
  })

/**
 * The whole service over `api` (`CallsightApi`, or the Promise facade's wire declaration), over
 * the `HttpClient` in context.
 * @internal
 */
export const makeService = (
  api: typeof CallsightApi,
  options: CallsightClientOptions
): Effect.Effect<CallsightClientService, never, HttpClient.HttpClient> =>
  Effect.map(derive(api, options), ({ httpClient, raw }) => makeFrom(api, raw, httpClient, options))

/**
 * The client of an API made of some of Callsight's groups, over the `HttpClient` in context:
 *
 * ```ts
 * const api = withApiErrors(HttpApi.make("callsight").add(ExtensionsApi))
 * const calls = yield* deriveClient(api, { baseUrl, apiKey })
 * const page = yield* calls.listCalls({ limit: 10 })
 * ```
 */
export const deriveClient = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E>(
  api: HttpApi.HttpApi<Id, Groups, E, never>,
  options: CallsightClientOptions
): Effect.Effect<DerivedClient<Groups, E>, never, HttpClient.HttpClient> =>
  Effect.map(derive(api, options), ({ httpClient, raw }) => derivedFrom(api, raw, httpClient, options))

/** The default page size of `GET /v1/teams/calls` (the declaration's default). */
const DEFAULT_LIST_LIMIT = 50

/** An id as a caller passes it; the request's schema checks it as the request is encoded. */
const asCallId = (id: string) => CallId.make(id, true)

const audioMethods = (
  api: HttpApi.HttpApi.Any,
  client: Pick<CallsightApiClient, "audio">,
  httpClient: HttpClient.HttpClient,
  baseUrl: string,
  apiKey: string | undefined
): AudioMethods => {
  const getAnalysis = (callId: string) => client.audio.getAnalysis({ path: { call_id: asCallId(callId) } })
  return {
    uploadAudio: (source, options = {}) => {
      // one key per call of uploadAudio, drawn now: every attempt (and a rerun of the Effect) sends it
      const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey()
      return Effect.gen(function* () {
        // without a key, where the declaration lets a session upload (a browser signed in to the portal), the cookie goes
        if (apiKey === undefined && operationsOf(api).keyed.has("audio.uploadAudio")) return yield* missingApiKey("audio.uploadAudio")
        const audio = yield* openAudio(source, options.filename)
        const body = multipartBody(audio, uploadFields(options), options.onProgress)
        // a Blob goes whole: the runtime's fetch reads it itself (a browser's fetch cannot stream a body over HTTP/1.1)
        const sent = audio.blob === undefined
          ? HttpBody.stream(body.stream, body.contentType, body.length)
          : HttpBody.raw(new Blob([body.head, audio.blob, body.tail], { type: body.contentType }), { contentType: body.contentType, contentLength: body.length })
        // The operation as the declaration derives it, over a client that sends the streamed
        // body in place of the (empty) form it is given: the answer is decoded as for any other.
        const upload = yield* HttpApiClient.endpoint(api as typeof CallsightApi, {
          group: "audio",
          endpoint: "uploadAudio",
          baseUrl,
          httpClient: HttpClient.mapRequest(
            httpClient,
            HttpClientRequest.setBody(sent)
          )
        })
        if (audio.blob !== undefined) options.onProgress?.({ sent: 0, total: body.length })
        const answer = yield* upload(
          completeRequest(apiKey)({ payload: new FormData(), headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } })
        )
        if (audio.blob !== undefined) options.onProgress?.({ sent: body.length, total: body.length })
        return answer
      })
    },
    getAnalysis,
    waitForCompletion: (callId, options) => waitForCompletion(getAnalysis, callId, options),
    getReportHtml: (callId) => client.audio.getReportHtml({ path: { call_id: asCallId(callId) } })
  }
}

const callsMethods = (client: Pick<CallsightApiClient, "extensions">): CallsMethods => ({
  getCall: (callId) => client.extensions.getCall({ path: { call_id: asCallId(callId) } }),
  deleteCall: (callId) => client.extensions.deleteCall({ path: { call_id: asCallId(callId) } }),
  listCalls: (options = {}) =>
    client.extensions.listCalls({
      urlParams: {
        ...(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Omit<ListCallsOptions, "limit">),
        limit: options.limit ?? DEFAULT_LIST_LIMIT
      }
    })
})
