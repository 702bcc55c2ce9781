/**
 * Trackers (issue 38, item 2; docs/trackers.md): the tenant's named lists of words and phrases
 * (competitors, features, pricing terms, risks, …), found in the calls' transcripts by stem and
 * phrase, and counted per tracker and term, call, closer and period, with the quotes. The portal
 * session: every user reads the trackers, owners and admins create, change and delete them, and the
 * report counts the calls the caller sees (a rep: their own).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CallId, NonEmptyTrimmedText, queryInt, Text, Timestamp, TimestampInput, strictBody } from "./Common.js"
import { Conflict, Forbidden, NotFound } from "./Errors.js"
import { SessionAuth } from "./Security.js"

export const TrackerId = Text.pipe(Schema.brand("TrackerId")).annotations({ description: "A tracker's id (`trk_…`)" })
export type TrackerId = typeof TrackerId.Type

export const TrackerKind = Schema.Literal("competitor", "feature", "pricing", "risk", "custom")
export type TrackerKind = typeof TrackerKind.Type

/** At most this many terms in a tracker, each at most TRACKER_TERM_MAX characters. */
export const TRACKER_TERMS_MAX = 100
export const TRACKER_TERM_MAX = 80

const TrackerName = NonEmptyTrimmedText.pipe(Schema.maxLength(80)).annotations({
  description: "The tracker's name, unique in the tenant in any case (1–80 characters)"
})
const TrackerTerm = NonEmptyTrimmedText.pipe(Schema.maxLength(TRACKER_TERM_MAX)).annotations({
  description: "A word or a phrase (1–80 characters), matched by stem, whole words, any case and diacritics; " +
    "in double quotes (`\"Gong\"`), matched without stemming"
})
const TrackerTerms = Schema.Array(TrackerTerm).pipe(Schema.minItems(1), Schema.maxItems(TRACKER_TERMS_MAX)).annotations({
  description: `1 to ${TRACKER_TERMS_MAX} terms, each once (the same words in any case are a duplicate: 422)`
})

export class CreateTrackerRequest extends Schema.Class<CreateTrackerRequest>("CreateTrackerRequest")({
  name: TrackerName,
  kind: Schema.optionalWith(TrackerKind, { default: () => "custom" as const }).annotations({ description: "Default `custom`" }),
  terms: TrackerTerms
}) {}

export class UpdateTrackerRequest extends Schema.Class<UpdateTrackerRequest>("UpdateTrackerRequest")({
  name: Schema.optional(TrackerName),
  kind: Schema.optional(TrackerKind),
  terms: Schema.optional(TrackerTerms)
}) {}

export const Tracker = Schema.Struct({
  tracker_id: TrackerId,
  name: Text,
  kind: TrackerKind,
  terms: Schema.Array(Text),
  source: Schema.Literal("tenant", "market_profile").annotations({
    description: "`market_profile`: the default Competitors tracker, whose terms are the market profile's `competitors` " +
      "(change them there; this tracker cannot be changed or deleted here: 409)"
  }),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Tracker" })
export type Tracker = typeof Tracker.Type

export const TrackerBackfill = Schema.Struct({
  calls_matched: Schema.Number.annotations({ description: "Completed calls matched again for this tracker now (the newest first)" }),
  calls_left: Schema.Number.annotations({
    description: "Older completed calls beyond the bound (TRACKER_BACKFILL_CALLS) left unmatched for this tracker"
  })
}).annotations({ identifier: "TrackerBackfill" })

export const SavedTracker = Schema.Struct({
  tracker: Tracker,
  backfill: TrackerBackfill
}).annotations({ identifier: "SavedTracker" })

export const TrackerList = Schema.Struct({
  trackers: Schema.Array(Tracker).annotations({ description: "The Competitors tracker first (when the market profile names competitors), then by name" })
}).annotations({ identifier: "TrackerList" })

export const TrackerQuote = Schema.Struct({
  call_id: CallId,
  tracker_id: TrackerId,
  term: Text,
  speaker: Text.annotations({ description: "The transcript's speaker label of the turn" }),
  role: Schema.NullOr(Text).annotations({ description: "The speaker's role in the analysis (`rep`, `buyer`, …) when known" }),
  start: Schema.Number.annotations({ description: "The turn's start, in seconds" }),
  matched: Text.annotations({ description: "The words said, exactly as in the transcript" }),
  quote: Text.annotations({ description: "The sentence around them, exactly as in the transcript" })
}).annotations({ identifier: "TrackerQuote" })

/** A number of mentions, the calls behind it and some of its quotes. */
const CountFields = {
  mentions: Schema.Number,
  calls: Schema.Number.annotations({ description: "How many calls have at least one of these mentions" }),
  call_ids: Schema.Array(CallId).annotations({ description: "The calls behind the count, newest first (at most 100)" }),
  quotes: Schema.Array(TrackerQuote).annotations({ description: "Up to `quotes` of the mentions, newest call first" })
}

export const TrackerTermCount = Schema.Struct({ term: Text, ...CountFields }).annotations({ identifier: "TrackerTermCount" })
export const TrackerCloserCount = Schema.Struct({
  closer_email: Schema.NullOr(Text).annotations({ description: "null: calls with no closer" }),
  ...CountFields
}).annotations({ identifier: "TrackerCloserCount" })
export const TrackerDealCount = Schema.Struct({
  deal_id: Text.annotations({ description: "The deal (docs/deals.md); calls of no deal are counted in no deal row" }),
  ...CountFields
}).annotations({ identifier: "TrackerDealCount" })
export const TrackerPeriodCount = Schema.Struct({
  period_start: Text.annotations({ description: "The period's first day (YYYY-MM-DD, UTC; weeks start on Monday)" }),
  ...CountFields
}).annotations({ identifier: "TrackerPeriodCount" })

export const TrackerCounts = Schema.Struct({
  tracker_id: TrackerId,
  name: Text,
  kind: TrackerKind,
  ...CountFields,
  terms: Schema.Array(TrackerTermCount).annotations({ description: "Every term of the tracker, most mentioned first (0 included)" }),
  closers: Schema.Array(TrackerCloserCount).annotations({ description: "Closers with a mention, most mentions first" }),
  deals: Schema.optionalWith(Schema.Array(TrackerDealCount), { default: () => [] }).annotations({
    description: "Deals with a mention, most mentions first"
  }),
  periods: Schema.Array(TrackerPeriodCount).annotations({ description: "Periods with a mention, oldest first" })
}).annotations({ identifier: "TrackerCounts" })

export const TrackerCallCount = Schema.Struct({
  call_id: CallId,
  closer_email: Schema.NullOr(Text),
  external_call_id: Schema.NullOr(Text),
  created_at: Timestamp,
  meeting_at: Timestamp.annotations({
    description: "When the call's meeting took place (`occurred_at`): the period it is counted in"
  }),
  deal_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }).annotations({ description: "The call's deal; null: none" }),
  mentions: Schema.Number,
  trackers: Schema.Array(Schema.Struct({ tracker_id: TrackerId, term: Text, mentions: Schema.Number })).annotations({
    description: "Mentions in this call by tracker and term"
  }),
  quotes: Schema.Array(TrackerQuote).annotations({ description: "Up to `quotes` of this call's mentions, in the order said" })
}).annotations({ identifier: "TrackerCallCount" })

export const TrackerReport = Schema.Struct({
  from: Timestamp,
  to: Timestamp,
  period: Schema.Literal("day", "week", "month"),
  trackers: Schema.Array(TrackerCounts),
  calls: Schema.Array(TrackerCallCount).annotations({ description: "A page of the calls with a mention, newest first" }),
  next_cursor: Schema.NullOr(Text).annotations({ description: "The next page of `calls` (asked with the same parameters); null at the end" })
}).annotations({ identifier: "TrackerReport" })
export type TrackerReport = typeof TrackerReport.Type

export const TrackerReportParams = Schema.Struct({
  from: Schema.optional(TimestampInput.annotations({
    description: "Calls whose meeting took place from (inclusive; `occurred_at`); default: 90 days before `to`"
  })),
  to: Schema.optional(TimestampInput.annotations({ description: "Calls made before (exclusive); default: now" })),
  period: Schema.optionalWith(Schema.Literal("day", "week", "month"), { default: () => "week" as const }).annotations({
    description: "The periods counted (UTC; weeks from Monday). Default `week`"
  }),
  tracker_id: Schema.optional(TrackerId.annotations({ description: "One tracker only (404 when it is not the tenant's)" })),
  closer_email: Schema.optional(Text.annotations({ description: "One closer's calls only (any case)" })),
  deal_id: Schema.optional(Text.pipe(Schema.maxLength(200)).annotations({ description: "One deal's calls only (`deal_id` of the call status or deal intelligence)" })),
  quotes: queryInt({ min: 0, max: 20, default: 3, description: "Quotes kept per count (0–20, default 3)" }),
  limit: queryInt({ min: 1, max: 200, default: 50, description: "Calls per page (1–200, default 50)" }),
  cursor: Schema.optional(Text.annotations({ description: "`next_cursor` of the previous page" }))
})

const TrackerPath = Schema.Struct({ tracker_id: TrackerId })

export class TrackersApi extends HttpApiGroup.make("trackers")
  .add(
    HttpApiEndpoint.get("listTrackers", "/v1/client-portal/trackers")
      .addSuccess(TrackerList)
      .annotate(OpenApi.Summary, "The tenant's trackers: the Competitors tracker from the market profile, and the tenant's own")
  )
  .add(
    HttpApiEndpoint.post("createTracker", "/v1/client-portal/trackers")
      .setPayload(strictBody(CreateTrackerRequest))
      .addSuccess(SavedTracker, { status: 201 })
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Create a tracker (owners and admins) and match it on the newest completed calls")
      .annotate(
        OpenApi.Description,
        "422 `detail` for an empty or too long name or term, no terms or more than 100, a term given twice, or a name the " +
          "tenant already uses (in any case; `Competitors` is the default tracker's). The calls completed before are matched " +
          "now, the newest TRACKER_BACKFILL_CALLS of them (`backfill`); calls completed after are matched as they complete."
      )
  )
  .add(
    HttpApiEndpoint.put("updateTracker", "/v1/client-portal/trackers/:tracker_id")
      .setPath(TrackerPath)
      .setPayload(strictBody(UpdateTrackerRequest))
      .addSuccess(SavedTracker)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Change a tracker's name, kind or terms (owners and admins); new terms are matched again on the newest calls")
      .annotate(OpenApi.Description, "404 for another tenant's tracker; 409 for the Competitors tracker (change the market profile's `competitors`).")
  )
  .add(
    HttpApiEndpoint.del("deleteTracker", "/v1/client-portal/trackers/:tracker_id")
      .setPath(TrackerPath)
      .addSuccess(Tracker)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Delete a tracker and its mentions (owners and admins); 409 for the Competitors tracker")
  )
  .add(
    HttpApiEndpoint.get("getTrackerReport", "/v1/client-portal/trackers/report")
      .setUrlParams(TrackerReportParams)
      .addSuccess(TrackerReport)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Mentions per tracker and term, closer and period between from and to, with the calls and quotes behind each count")
      .annotate(
        OpenApi.Description,
        "Counts the completed calls made in [from, to) that the caller sees (a rep: their own calls). Each count has its " +
          "number of mentions, of calls, the calls' ids and up to `quotes` quotes; `calls` pages through the calls with a mention."
      )
  )
  .middleware(SessionAuth)
  .annotate(OpenApi.Title, "Trackers")
  .annotate(
    OpenApi.Description,
    "Beyond the spec (issue 38): named lists of words and phrases found in the calls' transcripts by stem and phrase, " +
      "counted per tracker, term, call, closer and period with the quotes (docs/trackers.md)."
  )
{}
