/**
 * The CRMs a tenant can connect (`GET /crm/providers`) and what each needs: crm-a speaks the
 * HubSpot CRM API v3 with a private-app token, Salesforce's OAuth 2 client-credentials flow of a
 * connected app, Pipedrive a personal API token. Only crm-a syncs outcomes (notes on deals, closed
 * deals read back); the others are connected, checked and listed.
 *
 * Credentials arrive as a flat record of strings: every field must be one the provider lists,
 * required ones present and not blank, URLs http(s). Secret fields are sealed apart from the
 * others and shown only by their last four characters.
 */
import { ValidationFailed } from "@callsight/api-spec"
import { Either } from "effect"

export type CrmProviderId = "crm-a" | "salesforce" | "pipedrive"

export interface CrmField {
  readonly name: string
  readonly label: string
  readonly type: "string" | "secret" | "url"
  readonly required: boolean
  readonly description: string | null
}

export interface CrmProviderSpec {
  readonly provider: CrmProviderId
  readonly name: string
  readonly description: string
  readonly auth_type: "api_key" | "access_token" | "oauth"
  readonly fields: ReadonlyArray<CrmField>
  readonly supports_outcome_sync: boolean
  readonly docs_url: string | null
}

export const CRM_PROVIDERS: ReadonlyArray<CrmProviderSpec> = [
  {
    provider: "crm-a",
    name: "crm-a (HubSpot CRM API v3)",
    description:
      "Deals and contacts over the HubSpot CRM API v3 with a private-app access token (scopes crm.objects.deals.read/write, " +
      "crm.objects.contacts.read). With sync_outcomes (PUT /integrations/crm-a), recorded call outcomes are written to the " +
      "matching deal as notes and closed deals fill the outcome truth of their calls. The same connection as " +
      "/integrations/crm-a.",
    auth_type: "access_token",
    fields: [
      {
        name: "access_token",
        label: "Private-app access token",
        type: "secret",
        required: true,
        description: "Settings > Integrations > Private apps in the account; checked with GET /crm/v3/objects/deals?limit=1"
      },
      { name: "account_id", label: "Account (portal) id", type: "string", required: false, description: "Shown for reference" }
    ],
    supports_outcome_sync: true,
    docs_url: "https://developers.hubspot.com/docs/api/private-apps"
  },
  {
    provider: "salesforce",
    name: "Salesforce",
    description:
      "A connected app with the OAuth 2.0 client-credentials flow enabled (and a run-as user); checked by asking the org " +
      "for a token at {login_url}/services/oauth2/token.",
    auth_type: "oauth",
    fields: [
      { name: "client_id", label: "Consumer key", type: "string", required: true, description: "The connected app's consumer key" },
      { name: "client_secret", label: "Consumer secret", type: "secret", required: true, description: "The connected app's consumer secret" },
      {
        name: "login_url",
        label: "My Domain URL",
        type: "url",
        required: false,
        description: "The org's My Domain login URL (https://<domain>.my.salesforce.com), where the client-credentials flow is " +
          "answered; default: the server's SALESFORCE_LOGIN_URL"
      }
    ],
    supports_outcome_sync: false,
    docs_url: "https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_client_credentials_flow.htm"
  },
  {
    provider: "pipedrive",
    name: "Pipedrive",
    description: "A user's personal API token (Personal preferences > API); checked with GET /v1/users/me.",
    auth_type: "api_key",
    fields: [
      { name: "api_token", label: "API token", type: "secret", required: true, description: "Sent in the x-api-token header" }
    ],
    supports_outcome_sync: false,
    docs_url: "https://pipedrive.readme.io/docs/how-to-find-the-api-token"
  }
]

export const providerSpec = (provider: string): CrmProviderSpec | undefined => CRM_PROVIDERS.find((p) => p.provider === provider)

/** Credentials split as they are stored: plain fields, and secrets (sealed together). */
export interface SplitCredentials {
  readonly fields: Readonly<Record<string, string>>
  readonly secrets: Readonly<Record<string, string>>
}

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/

const invalid = (field: string, msg: string) =>
  new ValidationFailed({ detail: [{ loc: ["body", "credentials", field], msg, type: "value_error" }] })

/** The credentials of `spec`, checked field by field (422 on the first wrong one), values trimmed. */
export const splitCredentials = (
  spec: CrmProviderSpec,
  credentials: Readonly<Record<string, string>>
): Either.Either<SplitCredentials, ValidationFailed> => {
  const known = new Set(spec.fields.map((f) => f.name))
  const unknown = Object.keys(credentials).find((name) => !known.has(name))
  if (unknown !== undefined) {
    return Either.left(invalid(unknown, `not a field of ${spec.name}: expected ${spec.fields.map((f) => f.name).join(", ")}`))
  }
  const fields: Record<string, string> = {}
  const secrets: Record<string, string> = {}
  for (const field of spec.fields) {
    const value = credentials[field.name]?.trim() ?? ""
    if (value === "") {
      if (field.required) return Either.left(invalid(field.name, `required: ${field.label}`))
      continue
    }
    if (field.type === "url" && !HTTP_URL.test(value)) return Either.left(invalid(field.name, "must be an http(s) URL"))
    if (field.type === "secret") secrets[field.name] = value
    else fields[field.name] = field.type === "url" ? value.replace(/\/+$/, "") : value
  }
  return Either.right({ fields, secrets })
}
