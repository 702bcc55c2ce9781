/**
 * Handlers of the `companion` group (spec 4.6: the two messaging channels' webhooks). None is built yet: every operation answers 501
 * `NotImplemented` (`Pending.companion`). The issue that builds them adds the service and the
 * repository beside this file and takes the operations off the list.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { handlePending } from "../http/Pending.js"

export const CompanionHttpLive = HttpApiBuilder.group(CallsightApi, "companion", (handlers) => handlePending(handlers, Pending.companion))
