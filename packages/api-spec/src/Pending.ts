/**
 * The operations declared but not built yet, group by group. Each answers 501 `NotImplemented`
 * (the server's handlers for them come from these lists), is the only kind of operation whose
 * OpenAPI entry shows the 501 response, and is listed as pending in the README's status table (a
 * test checks it). The compiler checks every name against its group's endpoints; an issue that
 * builds an operation takes it off its list, and the compiler then asks for its handler.
 */
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { AccountApi } from "./Account.js"
import type { AdminApi } from "./Admin.js"
import type { AssistantApi } from "./Assistant.js"
import type { AudioApi } from "./Audio.js"
import type { ClientAuthApi } from "./ClientAuth.js"
import type { ClientPortalApi, PortalPublicApi } from "./ClientPortal.js"
import type { CoachingApi } from "./Coaching.js"
import type { CompanionApi } from "./Companion.js"
import type { ExtensionsApi } from "./Extensions.js"
import type { IntegrationsApi } from "./Integrations.js"
import type { MarketIntelApi } from "./MarketIntel.js"
import type { MembersAdminApi, MembersApi } from "./Members.js"
import type { PaymentsApi } from "./Payments.js"
import type { ProbesApi } from "./Probes.js"
import type { RecorderApi } from "./Recorder.js"
import type { TrackersApi } from "./Trackers.js"
import type { WebhooksApi } from "./Webhooks.js"
import type { WorkspaceApi } from "./Workspace.js"

type Group =
  | ProbesApi
  | ClientAuthApi
  | ClientPortalApi
  | PortalPublicApi
  | RecorderApi
  | IntegrationsApi
  | CoachingApi
  | CompanionApi
  | AdminApi
  | MarketIntelApi
  | WorkspaceApi
  | AssistantApi
  | AudioApi
  | ExtensionsApi
  | MembersApi
  | MembersAdminApi
  | PaymentsApi
  | AccountApi
  | WebhooksApi
  | TrackersApi

/** The names of a group's endpoints. */
export type EndpointName<G> = G extends HttpApiGroup.HttpApiGroup<any, infer E, any, any, any>
  ? HttpApiEndpoint.HttpApiEndpoint.Name<E>
  : never

/** For each group, by its name, a list of some of its endpoint names. */
type PendingLists = {
  readonly [G in Group as HttpApiGroup.HttpApiGroup.Name<G>]: ReadonlyArray<EndpointName<G>>
}

export const Pending = {
  probes: [],
  clientAuth: [],
  clientPortal: [],
  portalPublic: [],
  recorder: [],
  integrations: [],
  coaching: [],
  companion: [],
  admin: [],
  marketIntel: [],
  workspace: [],
  assistant: [],
  audio: [],
  extensions: [],
  members: [],
  membersAdmin: [],
  payments: [],
  account: [],
  webhooks: [],
  trackers: [],
  trends: []
} as const satisfies PendingLists

export type PendingGroup = keyof typeof Pending

/** Whether an operation, by its group and endpoint names, is still pending. */
export const isPending = (group: string, endpoint: string): boolean =>
  (Pending as Record<string, ReadonlyArray<string> | undefined>)[group]?.includes(endpoint) === true
