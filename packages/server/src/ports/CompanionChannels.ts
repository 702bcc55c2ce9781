/**
 * The companion channels as the staff's administration sees them (`/v1/internal/admin/companion/*`):
 * the links per tenant and channel, connect codes, and pushes to the linked chats. The companion
 * feature implements this tag (it holds the links and speaks the messaging platforms); `main.ts`
 * provides it, so the admin feature never imports the companion.
 */
import type {
  ClientId,
  CompanionConnectCode,
  CompanionConnectCodeRequest,
  CompanionPushRequest,
  CompanionPushResult,
  CompanionStatus,
  Conflict,
  NotFound,
  ValidationFailed
} from "@callsight/api-spec"
import { Context, type Effect } from "effect"
import type { Actor } from "../tenancy/AuditLog.js"

export class CompanionChannels extends Context.Tag("@callsight/CompanionChannels")<
  CompanionChannels,
  {
    /** Each channel and the links, of one tenant (404 when unknown) or of all. */
    readonly status: (clientId: ClientId | undefined) => Effect.Effect<typeof CompanionStatus.Type, NotFound>
    /** A one-time code linking a chat of `request.channel` to the tenant; `clientId` is required (422). */
    readonly connectCode: (
      clientId: ClientId | undefined,
      request: CompanionConnectCodeRequest,
      actor: Actor
    ) => Effect.Effect<typeof CompanionConnectCode.Type, NotFound | Conflict | ValidationFailed>
    /** Sends the daily brief or a text to the linked chats of one tenant, or of all. */
    readonly push: (
      clientId: ClientId | undefined,
      request: CompanionPushRequest,
      actor: Actor
    ) => Effect.Effect<typeof CompanionPushResult.Type, NotFound | Conflict>
  }
>() {}
