/**
 * One request to a CRM's API, answered as what the caller needs to know: the JSON body of a 2xx,
 * a refusal (4xx) with the status and a short reason of ours, or no usable answer (no answer in
 * time, a 5xx, a 429). The CRM's own words never go into a reason (a reason goes into a response
 * and a row): they go to one WARN log line for operators, blanked and cut short.
 * The secrets the request carries are blanked out of every reason and log line, in every encoding
 * (lib/Redact.ts), should the provider (or the HTTP client, naming a URL) echo them.
 */
import { HttpClient, type HttpClientRequest } from "@effect/platform"
import { Data, Duration, Effect } from "effect"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { errorDetail, oauthErrorCode, requestSecrets, statusReason } from "../lib/ProviderRequests.js"
import { redactedExcerpt } from "../lib/Redact.js"

export type CrmAnswer = Data.TaggedEnum<{
  Ok: { readonly status: number; readonly body: unknown }
  /** The provider answered and refused (4xx but 429). */
  Refused: { readonly status: number; readonly reason: string }
  /** No answer, a 5xx or 429, or a 2xx without JSON. */
  Unreachable: { readonly reason: string }
}>
export const CrmAnswer = Data.taggedEnum<CrmAnswer>()

const TIMEOUT = Duration.seconds(10)

/** The host a request goes to, for a log line (never its path or query, where secrets may be). */
const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return "unknown"
  }
}

/**
 * Our reason for a CRM's answer with this status: short, never the CRM's own words; an OAuth token
 * endpoint's error code is named (`invalid_client`), a word of the RFC's fixed vocabulary.
 */
export const reasonOf = (status: number, text = ""): string => {
  const code = oauthErrorCode(text)
  return code === undefined ? statusReason(status) : `${statusReason(status)} (${code})`
}

/** A failure of our own (no answer, the connection), on one line, short, without the secrets. */
const transportReason = (message: string, secrets: ReadonlyArray<string>): string => redactedExcerpt(message, secrets, 200)

export class CrmRequests extends Effect.Service<CrmRequests>()("CrmRequests", {
  effect: Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient

    /** Sends `request` (which carries `secrets`, and its credential headers), answers what became of it; never fails. */
    const send = (request: HttpClientRequest.HttpClientRequest, given: ReadonlyArray<string>): Effect.Effect<CrmAnswer> => {
      const secrets = [...given, ...requestSecrets(request)]
      return client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.orElseSucceed(response.text, () => "").pipe(
            // the CRM's words for operators only, blanked and short
            Effect.tap((text) =>
              response.status >= 200 && response.status < 300
                ? Effect.void
                : Effect.logWarning("the CRM did not take the request").pipe(
                  Effect.annotateLogs({ host: hostOf(request.url), status: response.status, detail: errorDetail(text, secrets) })
                )
            ),
            Effect.map((text): CrmAnswer => {
              if (response.status >= 200 && response.status < 300) {
                if (text.trim() === "") return CrmAnswer.Ok({ status: response.status, body: null })
                try {
                  return CrmAnswer.Ok({ status: response.status, body: JSON.parse(text) as unknown })
                } catch {
                  return CrmAnswer.Unreachable({ reason: `HTTP ${response.status} without JSON` })
                }
              }
              // A 5xx, or too many requests (429), says nothing of the credentials: try again later.
              return response.status >= 500 || response.status === 429
                ? CrmAnswer.Unreachable({ reason: `HTTP ${response.status}: ${reasonOf(response.status, text)}` })
                : CrmAnswer.Refused({ status: response.status, reason: reasonOf(response.status, text) })
            })
          )
        ),
        Effect.scoped,
        Effect.timeoutFail({ duration: TIMEOUT, onTimeout: () => new Error("no answer within 10 s") }),
        Effect.catchAll((error: { readonly message: string }) =>
          Effect.succeed(CrmAnswer.Unreachable({ reason: transportReason(error.message, secrets) })))
      )
    }

    return { send } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
