/** The staff keys: ADMIN_API_KEY wins; without it the first start generates one, stores its hash and prints it once. */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { StaffKeys } from "../src/tenancy/StaffKeys.js"
import { AppConfig } from "../src/config.js"
import { runMigrations } from "../src/db/Migrations.js"
import { TestDatabase } from "./utils/TestDatabase.js"

/** Builds StaffKeys (as a server start does) and returns it with what it logged. */
const start = (config: Layer.Layer<AppConfig>) =>
  Effect.gen(function* () {
    const logged: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logged.push(String(message))))
    const keys = yield* Effect.provide(StaffKeys, StaffKeys.Default.pipe(Layer.provide(config), Layer.provide(capture)))
    return { keys, logged }
  })

it.layer(TestDatabase.layer)("staff keys", (it) => {
  describe("without ADMIN_API_KEY", () => {
    it.effect("the first start generates an admin key, prints it once and stores only its hash", () =>
      Effect.gen(function* () {
        yield* runMigrations
        const first = yield* start(AppConfig.layerWith({ adminApiKey: Option.none() }))
        const printed = first.logged.join("\n").match(/csa_[A-Za-z0-9_-]{43}/)
        expect(printed).not.toBeNull()
        const key = printed![0]
        expect(first.keys.identify(key)).toEqual(Option.some("admin"))
        expect(first.keys.identify(`${key}x`)).toEqual(Option.none())

        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ key_hash: string; prefix: string }>`SELECT key_hash, prefix FROM staff_keys`
        expect(rows).toHaveLength(1)
        expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/)
        expect(rows[0].key_hash).not.toContain(key.slice(4))
        expect(key.startsWith(rows[0].prefix)).toBe(true)

        const second = yield* start(AppConfig.layerWith({ adminApiKey: Option.none() }))
        expect(second.logged.join("\n")).not.toMatch(/csa_/)
        expect(second.keys.identify(key)).toEqual(Option.some("admin"))
      }))
  })

  describe("with ADMIN_API_KEY and ASSISTANT_API_KEY", () => {
    it.effect("the configured keys are the staff keys and nothing is printed", () =>
      Effect.gen(function* () {
        const { keys, logged } = yield* start(
          AppConfig.layerWith({
            adminApiKey: Option.some(Redacted.make("admin-secret")),
            assistantApiKey: Option.some(Redacted.make("assistant-secret"))
          })
        )
        expect(logged).toEqual([])
        expect(keys.identify("admin-secret")).toEqual(Option.some("admin"))
        expect(keys.identify("assistant-secret")).toEqual(Option.some("assistant"))
        expect(keys.identify("something-else")).toEqual(Option.none())
      }))
  })
})
