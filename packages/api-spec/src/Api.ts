/** The whole interface: the 114 operations of the spec, grouped as it groups them, and the extensions. */
import { HttpApi, OpenApi } from "@effect/platform"
import { AccountApi } from "./Account.js"
import { AdminApi } from "./Admin.js"
import { AssistantApi } from "./Assistant.js"
import { AudioApi } from "./Audio.js"
import { ClientAuthApi } from "./ClientAuth.js"
import { ClientPortalApi, PortalPublicApi } from "./ClientPortal.js"
import { ClosingAuditsApi } from "./ClosingAudits.js"
import { CoachingApi } from "./Coaching.js"
import { CompanionApi } from "./Companion.js"
import { withApiErrors } from "./Errors.js"
import { ExtensionsApi } from "./Extensions.js"
import { IntegrationsApi } from "./Integrations.js"
import { INTRODUCTION } from "./Introduction.js"
import { MarketIntelApi } from "./MarketIntel.js"
import { MembersAdminApi, MembersApi } from "./Members.js"
import { PaymentsApi } from "./Payments.js"
import { isPending } from "./Pending.js"
import { ProbesApi } from "./Probes.js"
import { RecorderApi } from "./Recorder.js"
import { TrackersApi } from "./Trackers.js"
import { TrendsApi } from "./Trends.js"
import { API_VERSION, VERSIONS_LINE } from "./Version.js"
import { WebhooksApi } from "./Webhooks.js"
import { WorkspaceApi } from "./Workspace.js"

export class CallsightApi extends HttpApi.make("callsight")
  .add(ProbesApi)
  .add(ClientAuthApi)
  .add(ClientPortalApi)
  .add(PortalPublicApi)
  .add(RecorderApi)
  .add(IntegrationsApi)
  .add(CoachingApi)
  .add(CompanionApi)
  .add(AdminApi)
  .add(MarketIntelApi)
  .add(WorkspaceApi)
  .add(AssistantApi)
  .add(AudioApi)
  .add(ExtensionsApi)
  .add(MembersApi)
  .add(MembersAdminApi)
  .add(PaymentsApi)
  .add(AccountApi)
  .add(WebhooksApi)
  .add(TrackersApi)
  .add(TrendsApi)
  .add(ClosingAuditsApi)
  .pipe(withApiErrors)
  .annotate(OpenApi.Title, "Callsight")
  .annotate(OpenApi.Version, API_VERSION)
  // The document is served by the service it describes: its operations are relative to it.
  .annotate(OpenApi.Servers, [{ url: "/", description: "This service" }])
  // the reference page names both versions, so the software's is not taken for the interface's
  .annotate(OpenApi.Description, `**${VERSIONS_LINE}**\n${INTRODUCTION}`)
  .annotate(OpenApi.Transform, (spec) => withNotImplementedWherePending(withoutPlatformDecodeError(spec)))
{}

/**
 * The platform declares its own 400 decode error on every operation; this service answers decode
 * failures with 422 `ValidationFailed` instead, so the 400 entries would be false.
 */
const withoutPlatformDecodeError = (spec: Record<string, any>): Record<string, any> => {
  for (const pathItem of Object.values(spec.paths ?? {}) as Array<Record<string, any>>) {
    for (const operation of Object.values(pathItem)) {
      if (operation?.responses?.["400"]?.description?.includes("HttpApiDecodeError") || isDecodeError(operation?.responses?.["400"])) {
        delete operation.responses["400"]
      }
    }
  }
  // the decode error and the schemas of its issue list, when nothing else refers to them
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey"]) {
    const schemas = spec.components?.schemas ?? {}
    const { [name]: _, ...others } = schemas
    const used = JSON.stringify([spec.paths, others]).includes(`"#/components/schemas/${name}"`)
    if (name in schemas && (name === "HttpApiDecodeError" || !used)) delete schemas[name]
  }
  return spec
}

const isDecodeError = (response: any): boolean =>
  JSON.stringify(response ?? {}).includes("HttpApiDecodeError")

/** The 501 response stays only on the operations still pending (`Pending.ts`). */
const withNotImplementedWherePending = (spec: Record<string, any>): Record<string, any> => {
  for (const pathItem of Object.values(spec.paths ?? {}) as Array<Record<string, any>>) {
    for (const operation of Object.values(pathItem)) {
      const [group, endpoint] = String(operation?.operationId ?? "").split(".")
      if (operation?.responses?.["501"] !== undefined && !isPending(group ?? "", endpoint ?? "")) {
        delete operation.responses["501"]
      }
    }
  }
  return spec
}
