/**
 * Handlers of the `marketIntel` group (spec 4.7: the staff's market-intelligence views). None is built yet: every operation answers 501
 * `NotImplemented` (`Pending.marketIntel`). The issue that builds them adds the service and the
 * repository beside this file and takes the operations off the list.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { handlePending } from "../http/Pending.js"

export const MarketIntelHttpLive = HttpApiBuilder.group(CallsightApi, "marketIntel", (handlers) => handlePending(handlers, Pending.marketIntel))
