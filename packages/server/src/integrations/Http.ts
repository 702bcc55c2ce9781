/**
 * Handlers of the `integrations` group (spec 4.4: calendar and video per closer, CRM, LLM and speech-provider keys). None is built yet: every operation answers 501
 * `NotImplemented` (`Pending.integrations`). The issue that builds them adds the service and the
 * repository beside this file and takes the operations off the list.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { handlePending } from "../http/Pending.js"

export const IntegrationsHttpLive = HttpApiBuilder.group(CallsightApi, "integrations", (handlers) => handlePending(handlers, Pending.integrations))
