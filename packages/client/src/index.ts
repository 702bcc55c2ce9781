/**
 * `@callsight/client`: the typed client of the Callsight API.
 * - Effect: `CallsightClient` (`CallsightClient.layer({ baseUrl, apiKey })` over any `HttpClient`,
 *   `CallsightClient.layerFetch(...)` over the global `fetch`).
 * - Promises: `createCallsightClient({ baseUrl, apiKey, fetch })`, failures as `CallsightError`.
 */
export {
  API_KEY_HEADER,
  type Answer,
  type Body,
  type CallsightApiClient,
  CallsightClient,
  type CallsightClientOptions,
  type CallsightClientService,
  CallsightError,
  type CallsightPromiseClient,
  type CallsightRawClient,
  type CreateCallsightClientOptions,
  createCallsightClient,
  isCallsightError,
  type KeyedClient,
  type KeyedGroup,
  type KeyedMethod,
  type KeyedRequest,
  normalizeBaseUrl,
  toCallsightError,
  wireApi
} from "./Client.js"
