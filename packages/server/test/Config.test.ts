/** Configuration is read from the environment, validated at start-up, with readable errors. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
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

  it.effect("the recorder: Recall's US base URL and a 300 s pass by default; a webhook secret must be whsec_<base64>", () =>
    Effect.gen(function* () {
      const config = yield* Effect.flatten(load({}))
      expect(config.recorderApiUrl).toBe("https://us-east-1.recall.ai")
      expect(Option.isNone(config.recorderApiKey)).toBe(true)
      expect(config.recorderScheduleIntervalSeconds).toBe(300)
      const secret = Buffer.alloc(24, 9).toString("base64")
      const good = yield* Effect.flatten(load({ RECORDER_API_URL: "https://eu-central-1.recall.ai/", RECORDER_WEBHOOK_SECRET: `whsec_${secret}` }))
      expect(good.recorderApiUrl).toBe("https://eu-central-1.recall.ai")
      expect(Option.map(good.recorderWebhookSecret, Redacted.value)).toEqual(Option.some(secret))
      const bad = yield* load({ RECORDER_WEBHOOK_SECRET: "whsec_!!" })
      expect(Either.isLeft(bad) && bad.left.message).toMatch(/RECORDER_WEBHOOK_SECRET: must be a signing secret/)
      const interval = yield* load({ RECORDER_SCHEDULE_INTERVAL_SECONDS: "0" })
      expect(Either.isLeft(interval) && interval.left.message).toMatch(/RECORDER_SCHEDULE_INTERVAL_SECONDS/)
    }))

  it.effect("the companion channels: the platforms' own API URLs by default; a secret token as the Bot API takes it; blank secrets unset", () =>
    Effect.gen(function* () {
      const config = yield* Effect.flatten(load({}))
      expect(config.messengerAApiUrl).toBe("https://api.telegram.org")
      expect(config.messengerBApiUrl).toBe("https://graph.facebook.com/v21.0")
      for (const key of ["messengerABotToken", "messengerASecretToken", "messengerBVerifyToken", "messengerBAppSecret", "messengerBAccessToken", "messengerBPhoneNumberId"] as const) {
        expect(Option.isNone(config[key] as Option.Option<unknown>), key).toBe(true)
      }
      const set = yield* Effect.flatten(load({
        MESSENGER_A_BOT_TOKEN: "123:abc",
        MESSENGER_A_SECRET_TOKEN: "s3cret_-token",
        MESSENGER_A_API_URL: "http://127.0.0.1:8081/",
        MESSENGER_B_PHONE_NUMBER_ID: "106540352242922",
        MESSENGER_B_APP_SECRET: "   "
      }))
      expect(Option.map(set.messengerASecretToken, Redacted.value)).toEqual(Option.some("s3cret_-token"))
      expect(set.messengerAApiUrl).toBe("http://127.0.0.1:8081")
      expect(set.messengerBPhoneNumberId).toEqual(Option.some("106540352242922"))
      expect(Option.isNone(set.messengerBAppSecret)).toBe(true)
      const badSecret = yield* load({ MESSENGER_A_SECRET_TOKEN: "has spaces!" })
      expect(Either.isLeft(badSecret) && badSecret.left.message).toMatch(/MESSENGER_A_SECRET_TOKEN: must be 1 to 256 characters/)
      const badPhone = yield* load({ MESSENGER_B_PHONE_NUMBER_ID: "+1 555 0100" })
      expect(Either.isLeft(badPhone) && badPhone.left.message).toMatch(/MESSENGER_B_PHONE_NUMBER_ID/)
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

  it.effect("the meeting tools' OAuth clients: endpoints default to Google's and Zoom's, each overridable; the secret redacted", () =>
    Effect.gen(function* () {
      const defaults = yield* Effect.flatten(load({}))
      expect(Option.isNone(defaults.calendar.clientId)).toBe(true)
      expect(defaults.calendar).toMatchObject({
        authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
        tokenUrl: "https://oauth2.googleapis.com/token",
        revokeUrl: "https://oauth2.googleapis.com/revoke",
        apiUrl: "https://www.googleapis.com/calendar/v3"
      })
      expect(defaults.video).toMatchObject({
        authorizeUrl: "https://zoom.us/oauth/authorize",
        tokenUrl: "https://zoom.us/oauth/token",
        revokeUrl: "https://zoom.us/oauth/revoke",
        apiUrl: "https://api.zoom.us/v2"
      })
      const local = yield* Effect.flatten(load({
        VIDEO_CLIENT_ID: "zoom-app",
        VIDEO_CLIENT_SECRET: "zoom-secret",
        VIDEO_AUTHORIZE_URL: "http://127.0.0.1:9000/authorize",
        VIDEO_TOKEN_URL: "http://127.0.0.1:9000/token/",
        VIDEO_REVOKE_URL: "http://127.0.0.1:9000/revoke",
        VIDEO_API_URL: "http://127.0.0.1:9001/v2"
      }))
      expect(local.video).toMatchObject({
        clientId: Option.some("zoom-app"),
        authorizeUrl: "http://127.0.0.1:9000/authorize",
        tokenUrl: "http://127.0.0.1:9000/token",
        apiUrl: "http://127.0.0.1:9001/v2"
      })
      expect(String(Option.getOrThrow(local.video.clientSecret))).not.toContain("zoom-secret")
      const bad = yield* load({ CALENDAR_TOKEN_URL: "not a url" })
      expect(Either.isLeft(bad) && bad.left.message).toMatch(/CALENDAR_TOKEN_URL/)
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
