/**
 * Before a CRM's credentials are stored, one documented call tells whether the provider takes them:
 *
 * - crm-a (HubSpot): `GET {CRM_A_API_URL}/crm/v3/objects/deals?limit=1` with the token as bearer;
 * - Salesforce: the OAuth 2 client-credentials grant, `POST {login_url}/services/oauth2/token`
 *   (`grant_type=client_credentials`, `client_id`, `client_secret`); the token it answers is not
 *   kept, its `instance_url` is;
 * - Pipedrive: `GET {PIPEDRIVE_API_URL}/v1/users/me` with the token in the `x-api-token` header
 *   (not in the query, where it would travel in URLs); its `company_domain` is kept.
 */
import { HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { AppConfig } from "../config.js"
import { CrmHubSpot } from "./CrmHubSpot.js"
import type { CrmProviderId, SplitCredentials } from "./CrmProviders.js"
import { CrmAnswer, CrmRequests } from "./CrmRequests.js"

export type CrmCheck =
  /** Taken; `learned` is what the provider told of the account, kept with the plain fields. */
  | { readonly _tag: "Accepted"; readonly learned: Readonly<Record<string, string>> }
  | { readonly _tag: "Refused"; readonly status: number; readonly reason: string }
  | { readonly _tag: "Unreachable"; readonly reason: string }

const text = (body: unknown, ...path: ReadonlyArray<string>): string | undefined => {
  let value: unknown = body
  for (const key of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined
  return typeof value === "string" && value !== "" ? value : undefined
}

const outcome = (answer: CrmAnswer, learned: (body: unknown) => Record<string, string>): CrmCheck =>
  CrmAnswer.$match(answer, {
    Ok: ({ body }): CrmCheck => ({ _tag: "Accepted", learned: learned(body) }),
    Refused: ({ reason, status }): CrmCheck => ({ _tag: "Refused", status, reason }),
    Unreachable: ({ reason }): CrmCheck => ({ _tag: "Unreachable", reason })
  })

export class CrmChecks extends Effect.Service<CrmChecks>()("CrmChecks", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const requests = yield* CrmRequests
    const hubspot = yield* CrmHubSpot

    /** Whether `provider` takes the credentials. */
    const check = Effect.fn("CrmChecks.check")(function* (provider: CrmProviderId, credentials: SplitCredentials) {
      const secrets = Object.values(credentials.secrets)
      switch (provider) {
        case "crm-a":
          return outcome(yield* hubspot.check(credentials.secrets["access_token"]!), () => ({}))
        case "salesforce": {
          const loginUrl = credentials.fields["login_url"] ?? config.salesforceLoginUrl
          const request = HttpClientRequest.post(`${loginUrl}/services/oauth2/token`).pipe(
            HttpClientRequest.acceptJson,
            HttpClientRequest.bodyUrlParams({
              grant_type: "client_credentials",
              client_id: credentials.fields["client_id"]!,
              client_secret: credentials.secrets["client_secret"]!
            })
          )
          const answer = yield* requests.send(request, secrets)
          // A granted token is the proof; it is not kept (it would also be a secret to blank out).
          const granted = answer._tag === "Ok" ? text(answer.body, "access_token") : undefined
          if (answer._tag === "Ok" && granted === undefined) {
            return { _tag: "Unreachable", reason: "the token endpoint answered without an access token" } as const
          }
          return outcome(answer, (body): Record<string, string> => {
            const instance = text(body, "instance_url")
            return instance === undefined ? {} : { instance_url: instance }
          })
        }
        case "pipedrive": {
          const request = HttpClientRequest.get(`${config.pipedriveApiUrl}/v1/users/me`).pipe(
            HttpClientRequest.acceptJson,
            HttpClientRequest.setHeader("x-api-token", credentials.secrets["api_token"]!)
          )
          return outcome(yield* requests.send(request, secrets), (body): Record<string, string> => {
            const domain = text(body, "data", "company_domain")
            return domain === undefined ? {} : { company_domain: domain }
          })
        }
      }
    })

    return { check } as const
  }),
  dependencies: [CrmRequests.Default, CrmHubSpot.Default]
}) {}
