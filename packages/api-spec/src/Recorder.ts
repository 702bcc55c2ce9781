/**
 * The recording bot (spec 4.3 `recall/*`, prefix /v1/client-portal, session cookie): whether it
 * records the tenant's meetings, how, and what it did. Its own group, beside the portal's, so the
 * server's `recorder/` folder serves it whole. Beyond the spec (extensions): the meetings it
 * scheduled (`GET /recall/meetings`), one meeting asked for by hand (`POST /recall/meetings`, the
 * way `manual` mode records), and the bot provider's signed status webhook
 * (`POST /v1/recorder/webhook`, public).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CallId, CloserId, NonEmptyTrimmedText, queryInt, Text, Timestamp, TimestampInput, strictBody } from "./Common.js"
import { WebhookAck } from "./Companion.js"
import { Conflict, Forbidden, NotFound, Unauthorized } from "./Errors.js"
import { SessionAuth } from "./Security.js"

// ---------------------------------------------------------------------------------------------
// Activation and status

export const RecallJoinMode = Schema.Literal("auto", "manual").annotations({
  description: "`auto`: every connected closer's calendar events with a meeting link are recorded; " +
    "`manual`: only the meetings asked for (`POST /v1/client-portal/recall/meetings`)"
})

/** The meeting platforms the bot joins, by the name `platforms` takes. */
export const RECALL_PLATFORMS = {
  video: "Zoom meetings (zoom.us links), the service's `video` integration",
  google_meet: "Google Meet (meet.google.com links)",
  teams: "Microsoft Teams (teams.microsoft.com and teams.live.com links)",
  webex: "Webex (webex.com links)"
} as const
export type RecallPlatform = keyof typeof RECALL_PLATFORMS

const platformList = Object.entries(RECALL_PLATFORMS).map(([name, what]) => `\`${name}\` (${what})`).join(", ")

export class ActivateRecallRequest extends Schema.Class<ActivateRecallRequest>("ActivateRecallRequest")({
  join_mode: RecallJoinMode,
  bot_name: Schema.optional(NonEmptyTrimmedText.pipe(Schema.maxLength(100))).annotations({
    description: "The name the bot shows in the meeting (default: `Callsight Recorder`)"
  }),
  platforms: Schema.Array(NonEmptyTrimmedText.pipe(Schema.maxLength(50))).pipe(
    Schema.minItems(1),
    Schema.maxItems(10)
  ).annotations({ description: `Meeting platforms the bot joins: ${platformList}; another name is 422`, examples: [["video"]] })
}) {}

export const RecallCounts = Schema.Struct({
  scheduled: Schema.Number.annotations({ description: "Bots scheduled in the window" }),
  recorded: Schema.Number.annotations({ description: "Meetings whose recording became a call in the window" }),
  failed: Schema.Number.annotations({ description: "Bots that could not join, meetings without a recording, recordings over the plan's monthly ingests" })
}).annotations({ identifier: "RecallCounts" })

export const RecallError = Schema.Struct({
  message: Text,
  at: Timestamp
}).annotations({ identifier: "RecallError" })

export const RecallStatus = Schema.Struct({
  active: Schema.Boolean,
  join_mode: Schema.NullOr(RecallJoinMode),
  bot_name: Schema.NullOr(Text),
  platforms: Schema.Array(Text),
  since: Schema.NullOr(Timestamp).annotations({ description: "When it was last activated; null when inactive" }),
  meetings_recorded: Schema.Number.annotations({ description: "Meetings recorded into calls, all time" }),
  last_recording_at: Schema.NullOr(Timestamp),
  meetings_upcoming: Schema.Number.annotations({ description: "Bots scheduled that have not joined yet" }),
  last_7_days: RecallCounts,
  last_error: Schema.NullOr(RecallError).annotations({ description: "The latest failure of a bot of the tenant" }),
  provider_configured: Schema.Boolean.annotations({ description: "Whether the service has a bot provider key (RECORDER_API_KEY)" })
}).annotations({ identifier: "RecallStatus" })

// ---------------------------------------------------------------------------------------------
// Meetings

export const RecallMeetingState = Schema.Literal(
  "pending",
  "scheduled",
  "joining",
  "in_call",
  "processing",
  "recorded",
  "failed",
  "cancelled"
).annotations({
  description: "`pending`: not yet accepted by the bot provider (retried); `scheduled`: a bot waits for the meeting; " +
    "`joining`, `in_call`: the bot is at the meeting; `processing`: the recording is being fetched; " +
    "`recorded`: it is a call (`call_id`); `failed`: see `error`; `cancelled`: the recorder was deactivated"
})

export const RecallMeeting = Schema.Struct({
  meeting_id: Text,
  closer_id: Schema.NullOr(CloserId),
  closer_email: Schema.NullOr(Text),
  source: Schema.Literal("calendar", "manual"),
  title: Schema.NullOr(Text),
  meeting_url: Text,
  platform: Text,
  join_at: Timestamp,
  ends_at: Schema.NullOr(Timestamp),
  state: RecallMeetingState,
  bot_status: Schema.NullOr(Text).annotations({ description: "The bot provider's latest status code (`joining_call`, `in_call_recording`, `done`, `fatal`...)" }),
  call_id: Schema.NullOr(CallId),
  error: Schema.NullOr(Text),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "RecallMeeting" })

export const RecallMeetingList = Schema.Struct({
  meetings: Schema.Array(RecallMeeting).annotations({ description: "Latest join time first (equal times: the greater `meeting_id` first)" }),
  total: Schema.Number.annotations({ description: "How many meetings the caller sees (a rep: their own), of which `meetings` is one page" })
}).annotations({ identifier: "RecallMeetingList" })

export class RecordMeetingRequest extends Schema.Class<RecordMeetingRequest>("RecordMeetingRequest")({
  closer_id: CloserId.annotations({ description: "The closer the call is attributed to" }),
  meeting_url: NonEmptyTrimmedText.pipe(Schema.maxLength(2000)).annotations({
    description: "The meeting's link, on one of the tenant's platforms"
  }),
  join_at: Schema.optional(TimestampInput).annotations({ description: "When the bot joins (default: now); at most 5 minutes in the past" }),
  ends_at: Schema.optional(TimestampInput).annotations({ description: "When the meeting should be over, if known" }),
  title: Schema.optional(NonEmptyTrimmedText.pipe(Schema.maxLength(300)))
}) {}

// ---------------------------------------------------------------------------------------------
// The bot provider's webhook

/** What the bot provider (Recall.ai) posts: a status change of one of its bots. */
export const RecorderWebhookEvent = Schema.Struct({
  event: Text.annotations({ examples: ["bot.joining_call", "bot.in_call_recording", "bot.call_ended", "bot.done", "bot.fatal"] }),
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "`{data: {code, sub_code, updated_at}, bot: {id, metadata}}` (or the older `{bot_id, status: {code, ...}}`)"
  })
}).annotations({ identifier: "RecorderWebhookEvent" })

export const RecorderWebhookHeaders = Schema.Struct({
  "svix-id": Schema.optional(Text),
  "svix-timestamp": Schema.optional(Text),
  "svix-signature": Schema.optional(Text),
  "webhook-id": Schema.optional(Text),
  "webhook-timestamp": Schema.optional(Text),
  "webhook-signature": Schema.optional(Text)
})

// ---------------------------------------------------------------------------------------------
// The group

export class RecorderApi extends HttpApiGroup.make("recorder")
  .add(
    HttpApiEndpoint.get("getRecallStatus", "/recall/status")
      .addSuccess(RecallStatus)
      .middleware(SessionAuth)
      .annotate(
        OpenApi.Summary,
        "Whether the call-recording bot is active, since when, meetings upcoming, recorded and failed in the last 7 days, the last error"
      )
  )
  .add(
    HttpApiEndpoint.post("activateRecall", "/recall/activate")
      .setPayload(strictBody(ActivateRecallRequest))
      .addSuccess(RecallStatus)
      .addError(Forbidden)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Activate the call-recording bot, or change its mode, name or platforms (owners and admins)")
      .annotate(
        OpenApi.Description,
        `Platforms: ${platformList}. 409 when the service has no bot provider key (RECORDER_API_KEY). ` +
          "In `auto` mode the connected calendars are read every RECORDER_SCHEDULE_INTERVAL_SECONDS for the next 24 hours."
      )
  )
  .add(
    HttpApiEndpoint.post("deactivateRecall", "/recall/deactivate")
      .addSuccess(RecallStatus)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Deactivate the call-recording bot and cancel its scheduled bots (owners and admins)")
  )
  .add(
    HttpApiEndpoint.get("listRecallMeetings", "/recall/meetings")
      .setUrlParams(Schema.Struct({
        limit: queryInt({ min: 1, max: 200, default: 50, description: "Meetings per page: 1 to 200, default 50" }),
        offset: queryInt({ min: 0, max: 1_000_000, default: 0, description: "Meetings to skip (latest first), default 0" })
      }))
      .addSuccess(RecallMeetingList)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "The meetings the bot was scheduled for, latest first (extension)")
  )
  .add(
    HttpApiEndpoint.post("recordMeeting", "/recall/meetings")
      .setPayload(strictBody(RecordMeetingRequest))
      .addSuccess(RecallMeeting, { status: 201 })
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Send the bot to one meeting for a closer: how `manual` mode records (owners and admins; extension)")
      .annotate(
        OpenApi.Description,
        "409 when the recorder is not active; 404 for a closer of another tenant; 422 when the link is not on one of the tenant's platforms."
      )
  )
  .prefix("/v1/client-portal")
  .add(
    HttpApiEndpoint.post("receiveRecorderWebhook", "/v1/recorder/webhook")
      .setHeaders(RecorderWebhookHeaders)
      .setPayload(RecorderWebhookEvent)
      .addSuccess(WebhookAck)
      .addError(Unauthorized)
      .annotate(OpenApi.Summary, "Status webhook of the bot provider (Recall.ai, signed; extension)")
      .annotate(
        OpenApi.Description,
        "Signed as Svix signs (`svix-id`, `svix-timestamp`, `svix-signature`, or the same with `webhook-`): " +
          "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under RECORDER_WEBHOOK_SECRET (`whsec_...`), within 5 minutes; " +
          "otherwise 401 and nothing changes. A bot this service does not know is acknowledged and ignored."
      )
  )
  .annotate(OpenApi.Title, "Recording bot")
  .annotate(
    OpenApi.Description,
    "The meeting-recording bot: activation, status and meetings (session cookie), and the bot provider's signed webhook."
  )
{}
