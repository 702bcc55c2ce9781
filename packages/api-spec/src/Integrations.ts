/**
 * 4.4 Client integrations (prefix /v1/client-portal): the calendar and video-meeting connections of
 * a closer (OAuth 2 authorization code with PKCE), the crm-a integration, the tenant's LLM and
 * speech-to-text providers, and the generic CRM connections.
 *
 * Every operation takes the portal session cookie except the two OAuth callbacks, which the
 * provider's redirect reaches without one: their `state` binds them to the session and closer that
 * started the flow. Secrets are write-only: reads show only their last four characters.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Closer } from "./ClientPortal.js"
import { CloserId, Text, Timestamp, TextRecord, strictBody } from "./Common.js"
import { Conflict, Forbidden, NotFound } from "./Errors.js"
import { SessionAuth } from "./Security.js"

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

const HttpUrl = Text.pipe(
  Schema.trimmed(),
  Schema.maxLength(2048),
  Schema.pattern(/^https?:\/\/[^\s]+$/, { message: () => "must be an http(s) URL" })
)

const Secret = (description: string) =>
  Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(4096)).annotations({ description })

const Last4 = Schema.NullOr(Text.pipe(Schema.maxLength(4))).annotations({
  description: "The last four characters of the stored secret; the secret itself is never returned"
})

const CloserIdPath = Schema.Struct({ closer_id: CloserId })

const ProviderPath = Schema.Struct({ provider: Text })

/** The two meeting-tool connections a closer may have. */
export const MeetingIntegrationKind = Schema.Literal("calendar", "video")
export type MeetingIntegrationKind = typeof MeetingIntegrationKind.Type

export const AuthorizationStart = Schema.Struct({
  authorization_url: HttpUrl.annotations({
    description: "Open this URL in the browser: the provider's consent screen, with `state` and the PKCE challenge"
  }),
  closer_id: CloserId,
  kind: MeetingIntegrationKind,
  expires_at: Timestamp.annotations({ description: "The `state` of this flow is refused after this instant" })
}).annotations({ identifier: "AuthorizationStart" })

/** The query an OAuth provider appends when it sends the browser back. */
export const OAuthCallbackParams = Schema.Struct({
  code: Text,
  state: Text
})

/**
 * A callback refused: an unknown, used, expired or foreign `state`, or a code the provider would not
 * exchange. The browser shows this page; nothing is stored.
 */
export const CallbackRefusedPage = HttpApiSchema.Text({ contentType: "text/html" }).annotations({
  identifier: "CallbackRefusedPage",
  description: "An HTML page saying why the connection was refused and how to start again"
})

/** The success of a callback: a redirect to the portal, no body. */
export const PortalRedirect = HttpApiSchema.Empty(302).annotations({
  description:
    "Found: the `Location` header points to the portal's integrations page, " +
    "`{PUBLIC_BASE_URL}/portal/integrations?closer_id={closer_id}&integration=calendar&status=connected`"
})

/** The answer of a removal. */
export const RemovedIntegration = Schema.Struct({
  provider: Text,
  removed: Schema.Literal(true),
  removed_at: Timestamp
}).annotations({ identifier: "RemovedIntegration" })

// ---------------------------------------------------------------------------------------------
// crm-a
// ---------------------------------------------------------------------------------------------

export class UpsertCrmARequest extends Schema.Class<UpsertCrmARequest>("UpsertCrmARequest")({
  access_token: Secret("The crm-a private-app access token; stored encrypted, never returned"),
  account_id: Schema.optional(Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200))),
  sync_outcomes: Schema.Boolean.annotations({
    description: "Write recorded call outcomes back to the matching deals in crm-a"
  })
}) {}

export const CrmAIntegrationStatus = Schema.Literal("not_configured", "connected", "error")

export const CrmAIntegration = Schema.Struct({
  provider: Schema.Literal("crm-a"),
  configured: Schema.Boolean,
  status: CrmAIntegrationStatus,
  account_id: Schema.NullOr(Text),
  sync_outcomes: Schema.Boolean,
  token_last4: Last4,
  last_sync_at: Schema.NullOr(Timestamp),
  last_error: Schema.NullOr(Text),
  created_at: Schema.NullOr(Timestamp),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CrmAIntegration" })

// ---------------------------------------------------------------------------------------------
// LLM and speech-to-text providers
// ---------------------------------------------------------------------------------------------

export const LlmProvider = Schema.Literal("openai", "anthropic", "deepgram", "assemblyai", "openai-compatible")
export type LlmProvider = typeof LlmProvider.Type

export const LlmCapability = Schema.Literal("llm", "speech_to_text")

export class UpsertLlmRequest extends Schema.Class<UpsertLlmRequest>("UpsertLlmRequest")({
  provider: LlmProvider,
  api_key: Secret("The provider's API key; stored encrypted, never returned"),
  model: Schema.optional(Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200))),
  base_url: Schema.optional(HttpUrl.annotations({
    description: "The API base URL; needed for `openai-compatible`, optional for the others"
  }))
}) {}

export const LlmIntegration = Schema.Struct({
  provider: LlmProvider,
  capabilities: Schema.Array(LlmCapability),
  model: Schema.NullOr(Text),
  base_url: Schema.NullOr(Text),
  key_last4: Last4,
  last_used_at: Schema.NullOr(Timestamp),
  last_error: Schema.NullOr(Text),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "LlmIntegration" })

export const LlmIntegrationList = Schema.Struct({
  integrations: Schema.Array(LlmIntegration)
}).annotations({ identifier: "LlmIntegrationList" })

// ---------------------------------------------------------------------------------------------
// Generic CRM connections
// ---------------------------------------------------------------------------------------------

export const CrmProviderField = Schema.Struct({
  name: Text.annotations({ description: "The key to use in `ConnectCrmRequest.credentials`" }),
  label: Text,
  type: Schema.Literal("string", "secret", "url"),
  required: Schema.Boolean,
  description: Schema.NullOr(Text)
}).annotations({ identifier: "CrmProviderField" })

export const CrmProvider = Schema.Struct({
  provider: Text.annotations({ description: "The provider id used by connect and disconnect" }),
  name: Text,
  description: Text,
  auth_type: Schema.Literal("api_key", "access_token", "oauth"),
  fields: Schema.Array(CrmProviderField),
  supports_outcome_sync: Schema.Boolean,
  docs_url: Schema.NullOr(Text)
}).annotations({ identifier: "CrmProvider" })

export const CrmProviderList = Schema.Struct({
  providers: Schema.Array(CrmProvider)
}).annotations({ identifier: "CrmProviderList" })

export class ConnectCrmRequest extends Schema.Class<ConnectCrmRequest>("ConnectCrmRequest")({
  provider: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(64)),
  credentials: TextRecord(Text.pipe(Schema.maxLength(4096)), Schema.String.pipe(Schema.maxLength(64))).annotations({
    description: "The provider's required fields by name (see `GET /crm/providers`); secrets are stored encrypted"
  })
}) {}

export const CrmConnectionStatus = Schema.Literal("connected", "error")

export const CrmConnection = Schema.Struct({
  provider: Text,
  name: Text,
  status: CrmConnectionStatus,
  fields: TextRecord(Text).annotations({
    description: "The non-secret fields as given; secret fields as their last four characters"
  }),
  connected_at: Timestamp,
  updated_at: Timestamp,
  last_sync_at: Schema.NullOr(Timestamp),
  last_error: Schema.NullOr(Text)
}).annotations({ identifier: "CrmConnection" })

export const CrmStatus = Schema.Struct({
  connected: Schema.Boolean.annotations({ description: "At least one CRM is connected" }),
  connections: Schema.Array(CrmConnection)
}).annotations({ identifier: "CrmStatus" })

// ---------------------------------------------------------------------------------------------
// The group
// ---------------------------------------------------------------------------------------------

const startMeetingConnection = <Name extends string, Kind extends MeetingIntegrationKind>(
  name: Name,
  kind: Kind,
  tool: string
) =>
  HttpApiEndpoint.post(name, `/closers/:closer_id/integrations/${kind}/start`)
    .setPath(CloserIdPath)
    .addSuccess(AuthorizationStart)
    .addError(NotFound)
    .addError(Forbidden)
    .addError(Conflict)
    .middleware(SessionAuth)
    .annotate(OpenApi.Summary, `Start the ${tool} connection of a closer`)
    .annotate(
      OpenApi.Description,
      `Starts an OAuth 2 authorization-code flow with PKCE and answers the provider's \`authorization_url\`; ` +
        `its \`state\` is bound to the session and the closer. 404 for an unknown closer, ` +
        `409 when the closer is removed, 403 for members.`
    )

const disconnectMeetingConnection = <Name extends string, Kind extends MeetingIntegrationKind>(
  name: Name,
  kind: Kind,
  tool: string
) =>
  HttpApiEndpoint.del(name, `/closers/:closer_id/integrations/${kind}`)
    .setPath(CloserIdPath)
    .addSuccess(Closer)
    .addError(NotFound)
    .addError(Forbidden)
    .middleware(SessionAuth)
    .annotate(OpenApi.Summary, `Disconnect the ${tool} of a closer`)
    .annotate(
      OpenApi.Description,
      `Deletes the stored tokens and answers the closer, its \`${kind}\` now disconnected. ` +
        `404 for an unknown closer or when it is not connected.`
    )

const completeMeetingConnection = <Name extends string, Kind extends MeetingIntegrationKind>(name: Name, kind: Kind) =>
  HttpApiEndpoint.get(name, `/integrations/${kind}/callback`)
    .setUrlParams(OAuthCallbackParams)
    .addSuccess(PortalRedirect)
    .addError(CallbackRefusedPage, { status: 400 })
    .annotate(OpenApi.Summary, "OAuth-style return")
    .annotate(
      OpenApi.Description,
      `The provider's redirect after consent. The \`state\` identifies the flow (single use, 10 minutes) and is ` +
        `bound to the user who started it: the browser must carry that user's session cookie. Exchanges \`code\` ` +
        `(with the flow's PKCE verifier) at the provider's token endpoint, stores the tokens encrypted, marks the ` +
        `closer's ${kind} connected and answers 302 with \`Location\` pointing to the portal. An unknown, used, ` +
        `expired or foreign \`state\`, or a code the provider refuses, is a 400 page and nothing is stored.`
    )

export class IntegrationsApi extends HttpApiGroup.make("integrations")
  .add(startMeetingConnection("startCalendarConnection", "calendar", "calendar"))
  .add(disconnectMeetingConnection("disconnectCalendar", "calendar", "calendar"))
  .add(startMeetingConnection("startVideoConnection", "video", "video-meeting"))
  .add(disconnectMeetingConnection("disconnectVideo", "video", "video-meeting tool"))
  .add(completeMeetingConnection("completeCalendarConnection", "calendar"))
  .add(completeMeetingConnection("completeVideoConnection", "video"))
  .add(
    HttpApiEndpoint.get("getCrmAIntegration", "/integrations/crm-a")
      .addSuccess(CrmAIntegration)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Read the crm-a integration")
      .annotate(
        OpenApi.Description,
        "Never returns the token, only `token_last4`; `configured: false` with `status: not_configured` when none is saved."
      )
  )
  .add(
    HttpApiEndpoint.put("upsertCrmAIntegration", "/integrations/crm-a")
      .setPayload(strictBody(UpsertCrmARequest))
      .addSuccess(CrmAIntegration)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Create or update the crm-a integration")
      .annotate(
        OpenApi.Description,
        "crm-a speaks the HubSpot CRM API v3 with a private-app token. The token is checked first with one call " +
          "(`GET /crm/v3/objects/deals?limit=1`): refused, or crm-a out of reach, is 422 on `access_token` with the " +
          "HTTP status and a reason of ours (never the provider's words) and nothing is stored. The token is stored encrypted; the answer shows only its last four " +
          "characters. The same connection as `crm/connect` with provider `crm-a`; `sync_outcomes` writes recorded " +
          "outcomes to the matching deals as notes and reads closed deals back into the outcome truth."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteCrmAIntegration", "/integrations/crm-a")
      .addSuccess(RemovedIntegration)
      .addError(NotFound)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Remove the crm-a integration")
      .annotate(OpenApi.Description, "Deletes the stored token. 404 when none is configured.")
  )
  .add(
    HttpApiEndpoint.get("listLlmIntegrations", "/integrations/llm")
      .addSuccess(LlmIntegrationList)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "List the LLM and speech-to-text providers")
      .annotate(OpenApi.Description, "Listed without secrets: only `key_last4`.")
  )
  .add(
    HttpApiEndpoint.put("upsertLlmIntegration", "/integrations/llm")
      .setPayload(strictBody(UpsertLlmRequest))
      .addSuccess(LlmIntegration)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Create or update an LLM or speech-to-text provider")
      .annotate(
        OpenApi.Description,
        "One integration per provider and tenant; saving a provider again replaces its key, model and base URL. " +
          "The key is checked with one authenticated call to the provider first: refused, 422 on `api_key` with the " +
          "HTTP status and a reason of ours (never the provider's words); `base_url` pointing at an internal address (in production), 422 on `base_url`; the provider out of reach, 422 on `base_url` (or `provider`); nothing is stored then. The key is stored encrypted and never returned."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteLlmIntegration", "/integrations/llm/:provider")
      .setPath(ProviderPath)
      .addSuccess(RemovedIntegration)
      .addError(NotFound)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Remove an LLM or speech-to-text provider")
      .annotate(OpenApi.Description, "404 when the tenant has no integration of that provider.")
  )
  .add(
    HttpApiEndpoint.get("listCrmProviders", "/crm/providers")
      .addSuccess(CrmProviderList)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Available CRM providers and their required fields")
  )
  .add(
    HttpApiEndpoint.get("getCrmStatus", "/crm/status")
      .addSuccess(CrmStatus)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "CRM integration status of the tenant")
      .annotate(OpenApi.Description, "Every connected CRM with its last sync and last error; secrets only as their last four characters.")
  )
  .add(
    HttpApiEndpoint.post("connectCrm", "/crm/connect")
      .setPayload(strictBody(ConnectCrmRequest))
      .addSuccess(CrmConnection)
      .addError(NotFound)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Connect a CRM")
      .annotate(
        OpenApi.Description,
        "Checks the credentials with the provider (one documented call), then stores them (secrets encrypted) and " +
          "answers the connection. 404 for an unknown provider; 422 on `credentials.<field>` when a required field is " +
          "missing or a field unknown, 422 when the provider refuses the credentials or cannot be reached (nothing is " +
          "stored then). Connecting a provider again replaces its credentials."
      )
  )
  .add(
    HttpApiEndpoint.del("disconnectCrm", "/crm/disconnect/:provider")
      .setPath(ProviderPath)
      .addSuccess(RemovedIntegration)
      .addError(NotFound)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Disconnect a CRM")
      .annotate(OpenApi.Description, "Deletes its stored credentials. 404 when that provider is not connected.")
  )
  .prefix("/v1/client-portal")
  .annotate(OpenApi.Title, "Client integrations")
  .annotate(OpenApi.Description, "Calendar and video per closer (OAuth), CRM and LLM connections of the tenant.")
{}
