/**
 * One request to a CRM's API, answered as what the caller needs to know: the JSON body of a 2xx,
 * a refusal (4xx) with the provider's own words, or no usable answer (no answer in time, a 5xx,
 * a 429).
 * The secrets the request carries are blanked out of every reason, should the provider (or the
 * HTTP client, naming a URL) echo them, so a reason can go into a response, a log line or a row.
 */
import { HttpClient, type HttpClientRequest } from "@effect/platform"
import { OutboundHttpClient } from "../lib/Outbound.js"
import { Data, Duration, Effect } from "effect"

export type CrmAnswer = Data.TaggedEnum<{
  Ok: { readonly status: number; readonly body: unknown }
  /** The provider answered and refused (4xx but 429). */
  Refused: { readonly status: number; readonly reason: string }
  /** No answer, a 5xx or 429, or a 2xx without JSON. */
  Unreachable: { readonly reason: string }
}>
export const CrmAnswer = Data.taggedEnum<CrmAnswer>()

const TIMEOUT = Duration.seconds(10)

/** `secret` and its URL-encoded form replaced by a placeholder. */
export const blank = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets
    .filter((s) => s.length > 0)
    .reduce((t, s) => t.split(s).join("[secret]").split(encodeURIComponent(s)).join("[secret]"), text)

const pick = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined

/**
 * The provider's words from the usual error shapes (HubSpot `message`, Salesforce `error` and
 * `error_description`, Pipedrive `error` and `error_info`), short, one line, without the secrets.
 */
export const reasonOf = (text: string, secrets: ReadonlyArray<string>): string => {
  let reason = text.trim()
  try {
    const body = JSON.parse(text) as unknown
    const error = pick(body, "error")
    const description = pick(body, "error_description")
    const message = pick(body, "message") ?? pick(error, "message")
    if (typeof description === "string" && description !== "") {
      reason = typeof error === "string" && error !== "" ? `${description} (${error})` : description
    } else if (typeof message === "string" && message !== "") {
      reason = message
    } else if (typeof error === "string" && error !== "") {
      reason = error
    }
  } catch {
    // not JSON: the text itself
  }
  reason = blank(reason, secrets).replace(/\s+/g, " ")
  return reason.length > 200 ? `${reason.slice(0, 200)}…` : reason
}

export class CrmRequests extends Effect.Service<CrmRequests>()("CrmRequests", {
  effect: Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient

    /** Sends `request` (which carries `secrets`), answers what became of it; never fails. */
    const send = (request: HttpClientRequest.HttpClientRequest, secrets: ReadonlyArray<string>): Effect.Effect<CrmAnswer> =>
      client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(Effect.orElseSucceed(response.text, () => ""), (text): CrmAnswer => {
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
              ? CrmAnswer.Unreachable({ reason: `HTTP ${response.status}: ${reasonOf(text, secrets)}` })
              : CrmAnswer.Refused({ status: response.status, reason: reasonOf(text, secrets) || `HTTP ${response.status}` })
          })
        ),
        Effect.scoped,
        Effect.timeoutFail({ duration: TIMEOUT, onTimeout: () => new Error("no answer within 10 s") }),
        Effect.catchAll((error: { readonly message: string }) => Effect.succeed(CrmAnswer.Unreachable({ reason: reasonOf(error.message, secrets) })))
      )

    return { send } as const
  }),
  dependencies: [OutboundHttpClient]
}) {}
