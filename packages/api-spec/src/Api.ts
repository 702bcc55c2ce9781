/** The whole interface: the 114 operations of the spec, grouped as it groups them, and the extensions. */
import { HttpApi, OpenApi } from "@effect/platform"
import { AdminApi } from "./Admin.js"
import { AssistantApi } from "./Assistant.js"
import { AudioApi } from "./Audio.js"
import { ClientAuthApi } from "./ClientAuth.js"
import { ClientPortalApi } from "./ClientPortal.js"
import { CoachingApi } from "./Coaching.js"
import { CompanionApi } from "./Companion.js"
import { InternalError, ValidationFailed } from "./Errors.js"
import { ExtensionsApi } from "./Extensions.js"
import { IntegrationsApi } from "./Integrations.js"
import { ProbesApi } from "./Probes.js"
import { WorkspaceApi } from "./Workspace.js"

export const API_VERSION = "1.0.0"

export class CallsightApi extends HttpApi.make("callsight")
  .add(ProbesApi)
  .add(ClientAuthApi)
  .add(ClientPortalApi)
  .add(IntegrationsApi)
  .add(CoachingApi)
  .add(CompanionApi)
  .add(AdminApi)
  .add(WorkspaceApi)
  .add(AssistantApi)
  .add(AudioApi)
  .add(ExtensionsApi)
  .addError(ValidationFailed)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Callsight")
  .annotate(OpenApi.Version, API_VERSION)
  .annotate(
    OpenApi.Description,
    "Sales-call intelligence: upload call recordings, poll their analysis, fetch evidence reports; " +
      "the client portal, coaching, companion channels, internal administration, workspace and assistant interfaces."
  )
  .annotate(OpenApi.Transform, (spec) => withoutPlatformDecodeError(spec))
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
  if (spec.components?.schemas?.HttpApiDecodeError) delete spec.components.schemas.HttpApiDecodeError
  return spec
}

const isDecodeError = (response: any): boolean =>
  JSON.stringify(response ?? {}).includes("HttpApiDecodeError")
