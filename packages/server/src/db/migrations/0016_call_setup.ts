/**
 * What an upload may say about its call (issue 35): its type (`call_type`, which wins over the
 * type detected from the words) and, for stereo, the rep's channel (`rep_channel`: left, right or
 * auto). Null when the upload did not say: the type is then detected, the channel is the tenant's
 * default (its lead-context profile's `rep_channel`, `auto` unless set).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE calls
      ADD COLUMN call_type text CHECK (call_type IN ('cold_call', 'discovery', 'demo', 'negotiation', 'renewal', 'support_upsell')),
      ADD COLUMN rep_channel text CHECK (rep_channel IN ('left', 'right', 'auto'))`
})
