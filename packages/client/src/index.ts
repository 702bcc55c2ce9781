/**
 * `@callsight/client`: the typed client of the Callsight API (README.md, examples/).
 * - Effect: `CallsightClient` (`CallsightClient.layer({ baseUrl, apiKey })`, which brings
 *   `FetchHttpClient`; `CallsightClient.layerWithoutHttpClient(...)` over the caller's `HttpClient`).
 * - Promises: `createCallsightClient({ baseUrl, apiKey, fetch })`, failures as `CallsightError`.
 * - Some groups only: `deriveClient(api, { baseUrl, apiKey })` over an API of some of the
 *   declaration's groups (`withApiErrors(HttpApi.make("callsight").add(AudioApi))`), which loads
 *   their declarations alone; the `callsight` CLI derives each command's client so (Derive.ts).
 * - Audio analysis on both: `uploadAudio`, `getAnalysis`, `waitForCompletion`, `getReportHtml`,
 *   `getCall`, `listCalls`, `deleteCall`.
 * - Webhooks: `verifyWebhook(payload, headers, secret)` checks a Standard Webhooks signature (Webhooks.ts).
 * - Retries with back-off and jitter, per-attempt time limits (`maxRetries`, `timeoutMs`,
 *   `uploadTimeoutMs` on both constructors): Retry.ts.
 * - `Api`: the declaration itself (bundled in), for the Effect client's request bodies
 *   (`new Api.CreateWebhookRequest({ url })`), its error classes and its answers' schemas.
 */
export * as Api from "@callsight/api-spec"
export {
  type AnalysisNotice,
  type AnalysisStatus,
  type AudioSource,
  AudioSourceError,
  DEFAULT_WAIT_TIMEOUT_MS,
  isTerminal,
  type UploadAudioOptions,
  type UploadProgress,
  type WaitForCompletionOptions,
  WaitTimeout
} from "./Audio.js"
export {
  type Answer,
  type Body,
  CallsightClient,
  type CallsightPromiseClient,
  type CreateCallsightClientOptions,
  createCallsightClient,
  wireApi
} from "./Client.js"
export {
  API_KEY_HEADER,
  type AudioMethods,
  type CallsightApiClient,
  type CallsightAudioMethods,
  type CallsightClientOptions,
  type CallsightClientService,
  type CallsightRawClient,
  type CallsMethods,
  type CallsPage,
  type ClientBase,
  deriveClient,
  type DerivedClient,
  type GetAnalysisError,
  type GetCallError,
  type GetReportHtmlError,
  type KeyedClient,
  type KeyedGroup,
  type KeyedMethod,
  type KeyedRequest,
  type ListCallsError,
  type ListCallsOptions,
  MissingApiKey,
  normalizeBaseUrl,
  type UploadAudioError
} from "./Derive.js"
export { CallsightError, isCallsightError, toCallsightError } from "./Errors.js"
export {
  BASE_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_UPLOAD_TIMEOUT_MS,
  isRequestTimeout,
  MAX_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  RequestTimeout,
  resilient,
  retryAfterMs,
  type RetryOptions
} from "./Retry.js"
export {
  verifyWebhook,
  type VerifyWebhookOptions,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookPayload,
  WebhookVerificationError
} from "./Webhooks.js"
