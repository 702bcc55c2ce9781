/**
 * The qualification framework each tenant's calls are scored against (MEDDPICC, BANT or SPIN).
 * The portal keeps it in the tenant's lead-context profile and implements this tag; the analysis
 * worker reads it through the tag, so the two features never import each other (`main.ts`
 * provides the portal's layer to the worker).
 */
import type { ClientId } from "@callsight/api-spec"
import { Context, type Effect } from "effect"
import type { Framework } from "@callsight/analysis"

export class QualificationFrameworks extends Context.Tag("@callsight/QualificationFrameworks")<
  QualificationFrameworks,
  { readonly forTenant: (clientId: ClientId) => Effect.Effect<Framework> }
>() {}
