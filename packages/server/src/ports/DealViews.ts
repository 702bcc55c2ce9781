/**
 * Deal intelligence for the other features (issue 38, items 1 and 5): the open deals followed across
 * their calls, as `GET /v1/workspace/deal-intelligence` answers them (ungated: the chat answers
 * whether or not the tenant's assistant briefs are on). The workspace implements it
 * (`workspace/DealViewsLive.ts`, its `Briefs`), and `main.ts` provides it to the chat's tools.
 */
import type { ClientId, DealIntelligence, Sees } from "@callsight/api-spec"
import { Context, type Effect } from "effect"

export class DealViews extends Context.Tag("@callsight/DealViews")<
  DealViews,
  {
    /** The open deals the caller sees (a rep: the deals with their own calls), highest risk first. */
    readonly compute: (clientId: ClientId, sees: Sees) => Effect.Effect<typeof DealIntelligence.Type>
  }
>() {}
