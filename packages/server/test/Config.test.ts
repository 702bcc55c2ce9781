/** Configuration is read from the environment, validated at start-up, with readable errors. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Layer, Option } from "effect"
import { AppConfig } from "../src/config.js"

const load = (env: Record<string, string>) =>
  Effect.either(
    Effect.provide(
      AppConfig,
      AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
    )
  )

describe("configuration", () => {
  it.effect("defaults: port 8080, embedded database under ./.callsight, cap 200, 500 MB uploads", () =>
    Effect.gen(function* () {
      const config = yield* Effect.flatten(load({}))
      expect(config.port).toBe(8080)
      expect(config.host).toBe("0.0.0.0")
      expect(Option.isNone(config.databaseUrl)).toBe(true)
      expect(config.dataDir).toBe("./.callsight")
      expect(config.dbConnectionCap).toBe(200)
      expect(config.maxUploadMb).toBe(500)
      expect(config.publicBaseUrl).toBe("http://localhost:8080")
      expect(config.cookieSecure).toBe(false)
      expect(config.blobDir).toBe("./.callsight/blobs")
      expect(config.logFormat).toBe("json")
    }))

  it.effect("cookies are Secure when the public base URL is not local http", () =>
    Effect.gen(function* () {
      const config = yield* Effect.flatten(load({ PUBLIC_BASE_URL: "https://callsight.example.com/" }))
      expect(config.publicBaseUrl).toBe("https://callsight.example.com")
      expect(config.cookieSecure).toBe(true)
    }))

  it.effect("a bad value fails with a message naming the variable", () =>
    Effect.gen(function* () {
      const port = yield* load({ PORT: "eighty" })
      expect(Either.isLeft(port) && port.left.message).toMatch(/PORT/)
      const format = yield* load({ LOG_FORMAT: "xml" })
      expect(Either.isLeft(format) && format.left.message).toMatch(/LOG_FORMAT/)
      const pool = yield* load({ DB_POOL_MAX: "300" })
      expect(Either.isLeft(pool) && pool.left.message).toMatch(/DB_POOL_MAX must not be above DB_CONNECTION_CAP/)
      const negative = yield* load({ MAX_UPLOAD_MB: "-1" })
      expect(Either.isLeft(negative) && negative.left.message).toMatch(/MAX_UPLOAD_MB/)
    }))
})
