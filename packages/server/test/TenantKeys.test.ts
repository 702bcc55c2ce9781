/**
 * Tenant keys are remembered for API_KEY_CACHE_SECONDS so a polling agent costs one statement per
 * poll: a key revoked by another process (here, straight in the database) is refused once that
 * time has passed; with 0 it is refused at once. (A revocation through this process is immediate:
 * Portal.test.ts.)
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createTenant } from "./utils/AudioRequests.js"
import { call } from "./utils/PortalRequests.js"
import { testServerLayer } from "./utils/TestServer.js"

const revokeInDatabase = (apiKey: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE api_keys SET revoked_at = now() WHERE prefix = ${apiKey.slice(0, 12)}`).pipe(Effect.orDie)

const listCalls = (apiKey: string) => Effect.map(call("GET", "/v1/teams/calls", { headers: { "x-api-key": apiKey } }), (r) => r.status)

layer(testServerLayer({ apiKeyCacheSeconds: 1 }), { excludeTestServices: true })("a key remembered for 1 s", (it) => {
  it.effect("is still accepted right after another process revoked it, and refused after the second", () =>
    Effect.gen(function* () {
      const tenant = yield* createTenant(1)
      expect(yield* listCalls(tenant.api_key)).toBe(200)
      yield* revokeInDatabase(tenant.api_key)
      expect(yield* listCalls(tenant.api_key)).toBe(200)
      yield* Effect.sleep("1200 millis")
      expect(yield* listCalls(tenant.api_key)).toBe(401)
    }))
})

layer(testServerLayer({ apiKeyCacheSeconds: 0 }), { excludeTestServices: true })("keys not remembered", (it) => {
  it.effect("a key revoked in the database is refused at once", () =>
    Effect.gen(function* () {
      const tenant = yield* createTenant(1)
      expect(yield* listCalls(tenant.api_key)).toBe(200)
      yield* revokeInDatabase(tenant.api_key)
      expect(yield* listCalls(tenant.api_key)).toBe(401)
    }))
})
