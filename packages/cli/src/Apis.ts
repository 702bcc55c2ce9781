/**
 * The parts of the declaration the commands derive their clients from (Connection.ts): each an API
 * of the groups some commands use, with the errors every operation may answer, so that a command
 * loads the declarations of its own operations and not the other groups' (docs/architecture.md,
 * "The CLI's builds").
 */
import { AudioApi, ClientAuthApi, ClosingAuditsApi, ExtensionsApi, MembersAdminApi, TrackersApi, TrendsApi, WebhooksApi, withApiErrors } from "@callsight/api-spec"
import { HttpApi } from "@effect/platform"

/** `calls list`, `admin create-tenant`, `admin grant-credits`. */
export const ExtensionsClientApi = withApiErrors(HttpApi.make("callsight").add(ExtensionsApi))

/** `upload`, `status`, `report`, `result`, and `mcp`'s tools. */
export const AudioClientApi = withApiErrors(HttpApi.make("callsight").add(AudioApi).add(ExtensionsApi))

/** `login`, `verify`, `me`, `logout`. */
export const SessionClientApi = withApiErrors(HttpApi.make("callsight").add(ClientAuthApi))

/** `webhooks ...`. */
export const WebhooksClientApi = withApiErrors(HttpApi.make("callsight").add(WebhooksApi))

/** `admin members ...`. */
export const MembersClientApi = withApiErrors(HttpApi.make("callsight").add(MembersAdminApi))

/** `trackers ...` (the stored portal session). */
export const TrackersClientApi = withApiErrors(HttpApi.make("callsight").add(TrackersApi))

/** `trends` (the stored portal session). */
export const TrendsClientApi = withApiErrors(HttpApi.make("callsight").add(TrendsApi))

/** `audit ...` (a tenant key). */
export const ClosingAuditsClientApi = withApiErrors(HttpApi.make("callsight").add(ClosingAuditsApi))
