/**
 * The bot provider, as the Recall.ai API v1 documents it (`RECORDER_API_URL`, key
 * `RECORDER_API_KEY` sent as `Authorization: Token …`):
 * - `POST /api/v1/bot/` `{meeting_url, join_at, bot_name, metadata}` schedules a bot (201 `{id, …}`);
 * - `GET /api/v1/bot/{id}/` reads it: `status_changes` (`joining_call`, `in_call_recording`,
 *   `call_ended`, `done`, `fatal`, each with `sub_code` and `message`) and `recordings`, whose
 *   `media_shortcuts` carry the pre-signed download URL of the mixed recording;
 * - `DELETE /api/v1/bot/{id}/` cancels a bot that has not joined yet;
 * - the recording itself is fetched from its pre-signed URL, without the key.
 */
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Data, Duration, Effect, Option, Redacted, Schema, Stream } from "effect"
import { AppConfig } from "../config.js"
import { errorDetail, requestSecrets, statusReason } from "../lib/ProviderRequests.js"
import { redactedExcerpt } from "../lib/Redact.js"

/** The provider could not be reached, or failed on its side (5xx, timeout): try again later. */
export class ProviderUnavailable extends Data.TaggedError("ProviderUnavailable")<{ readonly message: string }> {}

/** The provider answered and refused (4xx other than 404), with its reason. */
export class ProviderRefused extends Data.TaggedError("ProviderRefused")<{ readonly status: number; readonly message: string }> {}

/** The provider knows no such bot. */
export class BotNotFound extends Data.TaggedError("BotNotFound")<{ readonly botId: string }> {}

/** No RECORDER_API_KEY: the recorder cannot speak to its provider. */
export class ProviderNotConfigured extends Data.TaggedError("ProviderNotConfigured")<{ readonly message: string }> {}

const nullable = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

const StatusChange = Schema.Struct({
  code: Schema.String,
  sub_code: nullable(Schema.String),
  message: nullable(Schema.String),
  created_at: nullable(Schema.String)
})
export type StatusChange = typeof StatusChange.Type

const MediaShortcut = Schema.Struct({
  status: nullable(Schema.Struct({ code: Schema.String })),
  data: nullable(Schema.Struct({ download_url: nullable(Schema.String) }))
})

const Recording = Schema.Struct({
  id: Schema.String,
  status: nullable(Schema.Struct({ code: Schema.String })),
  media_shortcuts: nullable(Schema.Struct({
    audio_mixed: nullable(MediaShortcut),
    video_mixed: nullable(MediaShortcut)
  }))
})

const BotResponse = Schema.Struct({
  id: Schema.String,
  status_changes: Schema.optionalWith(Schema.Array(StatusChange), { default: () => [] }),
  recordings: Schema.optionalWith(Schema.Array(Recording), { default: () => [] })
})

/** A bot as read from the provider, with what the recorder needs of it. */
export interface ProviderBot {
  readonly id: string
  readonly statusChanges: ReadonlyArray<StatusChange>
  /** The latest status change, if any. */
  readonly latest: StatusChange | undefined
  /** The download URL of the first finished recording's mixed media (audio first, else video), if any. */
  readonly recordingUrl: string | null
}

const toProviderBot = (bot: typeof BotResponse.Type): ProviderBot => {
  const urls = bot.recordings.flatMap((recording) => {
    if (recording.status !== null && recording.status.code !== "done") return []
    const shortcuts = recording.media_shortcuts
    return [shortcuts?.audio_mixed, shortcuts?.video_mixed].flatMap((media) =>
      media?.data?.download_url != null && (media.status === null || media.status.code === "done") ? [media.data.download_url] : []
    )
  })
  return { id: bot.id, statusChanges: bot.status_changes, latest: bot.status_changes.at(-1), recordingUrl: urls[0] ?? null }
}

const API_TIMEOUT = Duration.seconds(20)
const DOWNLOAD_TIMEOUT = Duration.minutes(15)

export class RecallClient extends Effect.Service<RecallClient>()("RecallClient", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const client = yield* HttpClient.HttpClient
    const base = `${config.recorderApiUrl}/api/v1`
    /** Blanked out of every reason and log line (lib/Redact.ts). */
    const secrets = [Option.getOrUndefined(config.recorderApiKey)]

    const authorized = (request: HttpClientRequest.HttpClientRequest) =>
      Option.match(config.recorderApiKey, {
        onNone: () => Effect.fail(new ProviderNotConfigured({ message: "RECORDER_API_KEY is not set" })),
        onSome: (key) =>
          Effect.succeed(request.pipe(
            HttpClientRequest.setHeader("authorization", `Token ${Redacted.value(key)}`),
            HttpClientRequest.acceptJson
          ))
      })

    /** Sends a request to the API; a 2xx answers its response, anything else a typed failure. */
    const send = (request: HttpClientRequest.HttpClientRequest, botId?: string) =>
      Effect.flatMap(authorized(request), (signed) =>
        client.execute(signed).pipe(
          Effect.timeoutFail({ duration: API_TIMEOUT, onTimeout: () => new ProviderUnavailable({ message: "no answer within 20 s" }) }),
          Effect.catchTag("RequestError", "ResponseError", (e) =>
            Effect.fail(new ProviderUnavailable({ message: redactedExcerpt(e.message, [...secrets, ...requestSecrets(signed)], 300) }))),
          Effect.flatMap((response): Effect.Effect<HttpClientResponse.HttpClientResponse, ProviderUnavailable | ProviderRefused | BotNotFound> =>
            response.status >= 200 && response.status < 300
              ? Effect.succeed(response)
              // our reason (the row, the events, the portal show it); the provider's words go to the log
              : Effect.flatMap(Effect.orElseSucceed(response.text, () => ""), (text): Effect.Effect<never, ProviderUnavailable | ProviderRefused | BotNotFound> =>
                response.status === 404 && botId !== undefined
                  ? Effect.fail(new BotNotFound({ botId }))
                  : Effect.logWarning("the bot provider did not take the request").pipe(
                    Effect.annotateLogs({ status: response.status, detail: errorDetail(text, [...secrets, ...requestSecrets(signed)]) }),
                    Effect.zipRight(Effect.fail(
                      response.status >= 500 || response.status === 429
                        ? new ProviderUnavailable({ message: `HTTP ${response.status}: ${statusReason(response.status)}` })
                        : new ProviderRefused({ status: response.status, message: statusReason(response.status) })
                    ))
                  ))
          )
        ))

    const decodeBot = (response: HttpClientResponse.HttpClientResponse) =>
      response.json.pipe(
        Effect.flatMap(Schema.decodeUnknown(BotResponse)),
        // what the answer holds stays out of the message
        Effect.mapError(() => new ProviderUnavailable({ message: "an answer that is not the bot the API documents" })),
        Effect.map(toProviderBot)
      )

    /** Schedules a bot to join `meetingUrl` at `joinAt`. */
    const createBot = Effect.fn("RecallClient.createBot")(function* (bot: {
      readonly meetingUrl: string
      readonly joinAt: string
      readonly botName: string
      readonly metadata: Readonly<Record<string, string>>
    }) {
      const response = yield* send(
        HttpClientRequest.post(`${base}/bot/`).pipe(
          HttpClientRequest.bodyUnsafeJson({
            meeting_url: bot.meetingUrl,
            join_at: bot.joinAt,
            bot_name: bot.botName,
            metadata: bot.metadata
          })
        )
      )
      return yield* decodeBot(response)
    })

    const getBot = Effect.fn("RecallClient.getBot")(function* (botId: string) {
      return yield* decodeBot(yield* send(HttpClientRequest.get(`${base}/bot/${encodeURIComponent(botId)}/`), botId))
    })

    /** Cancels a scheduled bot; the provider refuses (4xx) once the bot is in its meeting. */
    const deleteBot = Effect.fn("RecallClient.deleteBot")(function* (botId: string) {
      yield* send(HttpClientRequest.del(`${base}/bot/${encodeURIComponent(botId)}/`), botId)
    })

    /** The recording's bytes, from its pre-signed URL (no key sent there). */
    const download = (url: string): Stream.Stream<Uint8Array, ProviderUnavailable> => {
      // a pre-signed URL's query is its credential (a signature, a token): blanked out of messages
      const signed: Array<string> = []
      try {
        const parsed = new URL(url)
        signed.push(parsed.search.slice(1), ...parsed.searchParams.values())
      } catch {
        // not a URL: the request fails and says so
      }
      const fetchFailed = (e: { readonly message: string }) =>
        new ProviderUnavailable({ message: `the recording could not be fetched: ${redactedExcerpt(e.message, signed, 300)}` })
      return Stream.unwrap(
        client.execute(HttpClientRequest.get(url)).pipe(
          Effect.mapError(fetchFailed),
          Effect.flatMap((response) =>
            response.status >= 200 && response.status < 300
              ? Effect.succeed(response.stream.pipe(Stream.mapError(fetchFailed)))
              : Effect.fail(new ProviderUnavailable({ message: `the recording could not be fetched: HTTP ${response.status}` }))
          )
        )
      ).pipe(
        Stream.timeoutFail(() => new ProviderUnavailable({ message: "the recording took over 15 minutes to fetch" }), DOWNLOAD_TIMEOUT)
      )
    }

    return { configured: Option.isSome(config.recorderApiKey), createBot, getBot, deleteBot, download } as const
  }),
  dependencies: [NodeHttpClient.layerUndici]
}) {}
