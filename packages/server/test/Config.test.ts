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

  it.effect("SECRETS_KEY and SECRETS_KEY_PREVIOUS must be 32 bytes in base64; NODE_ENV=production is production", () =>
    Effect.gen(function* () {
      const bad = yield* load({ SECRETS_KEY: "short" })
      expect(Either.isLeft(bad) && bad.left.message).toMatch(/SECRETS_KEY: must be 32 bytes in base64/)
      const previous = yield* load({ SECRETS_KEY_PREVIOUS: Buffer.alloc(16).toString("base64") })
      expect(Either.isLeft(previous) && previous.left.message).toMatch(/SECRETS_KEY_PREVIOUS/)
      const good = yield* Effect.flatten(load({ SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"), NODE_ENV: "production" }))
      expect(Option.isSome(good.secretsKey)).toBe(true)
      expect(good.production).toBe(true)
      expect((yield* Effect.flatten(load({}))).production).toBe(false)
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

  it.effect("a speech-to-text provider needs its key; base URLs default to the providers' own", () =>
    Effect.gen(function* () {
      const defaults = yield* Effect.flatten(load({}))
      expect(defaults.transcriber).toBe("none")
      expect(defaults.deepgramBaseUrl).toBe("https://api.deepgram.com")
      expect(defaults.assemblyaiBaseUrl).toBe("https://api.assemblyai.com")
      expect(defaults.openaiBaseUrl).toBe("https://api.openai.com")
      expect(defaults.openaiTranscribeModel).toBe("gpt-4o-transcribe-diarize")
      expect(defaults.transcriberTimeoutSeconds).toBe(600)

      const noKey = yield* load({ TRANSCRIBER: "deepgram" })
      expect(Either.isLeft(noKey) && noKey.left.message).toBe("DEEPGRAM_API_KEY: must be set when TRANSCRIBER=deepgram")
      const noAssemblyKey = yield* load({ TRANSCRIBER: "assemblyai", DEEPGRAM_API_KEY: "dg" })
      expect(Either.isLeft(noAssemblyKey) && noAssemblyKey.left.message).toMatch(/^ASSEMBLYAI_API_KEY: /)
      const unknown = yield* load({ TRANSCRIBER: "whisper" })
      expect(Either.isLeft(unknown) && unknown.left.message).toMatch(/TRANSCRIBER/)

      const deepgram = yield* Effect.flatten(
        load({ TRANSCRIBER: "deepgram", DEEPGRAM_API_KEY: "dg-key", DEEPGRAM_BASE_URL: "http://127.0.0.1:9000/" })
      )
      expect(deepgram.transcriber).toBe("deepgram")
      expect(deepgram.deepgramBaseUrl).toBe("http://127.0.0.1:9000")
      // a self-hosted OpenAI-compatible server may take no key
      const selfHosted = yield* Effect.flatten(
        load({ TRANSCRIBER: "openai", OPENAI_BASE_URL: "http://127.0.0.1:8000", OPENAI_TRANSCRIBE_MODEL: "whisper-1" })
      )
      expect(Option.isNone(selfHosted.openaiApiKey)).toBe(true)
      expect(selfHosted.openaiTranscribeModel).toBe("whisper-1")
      const hosted = yield* load({ TRANSCRIBER: "openai" })
      expect(Either.isLeft(hosted) && hosted.left.message).toMatch(/^OPENAI_API_KEY: /)
    }))
})
