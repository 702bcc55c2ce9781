/**
 * 4.8 Workspace (prefix /v1/workspace): the signed-in user's working surface. Every operation
 * takes the session cookie. The dashboard briefs answer `null` (200) when the assistant component
 * is switched off for the tenant. `TeamHealth` is also the assistant interface's team-health view.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CallAccount } from "./Audio.js"
import { CallAnalysis, ScorecardDimensionName } from "./CallAnalysis.js"
import { CallId, ClientId, CloserId, NonEmptyTrimmedText, Payload, Text, Timestamp, UserId, queryInt, strictBody } from "./Common.js"
import { AccountAlert, AnswerSource, DealOutcome, SuggestedAction } from "./ClientPortal.js"
import { Conflict, NotFound, PaymentRequired } from "./Errors.js"
import { SessionAuth } from "./Security.js"

// ---------------------------------------------------------------------------------------------
// Session and state

export const WorkspaceSession = Schema.Struct({
  session_id: Text,
  user_id: UserId,
  client_id: ClientId,
  created_at: Timestamp,
  expires_at: Timestamp
}).annotations({ identifier: "WorkspaceSession" })

export const PinnedCall = Schema.Struct({
  call_id: CallId,
  title: Schema.NullOr(Text),
  pinned_at: Timestamp
}).annotations({ identifier: "PinnedCall" })

export const RecentSearch = Schema.Struct({
  q: Text,
  at: Timestamp,
  results: Schema.Number
}).annotations({ identifier: "RecentSearch" })

export const WorkspaceState = Schema.Struct({
  session: Schema.NullOr(WorkspaceSession).annotations({ description: "null before `POST /session`" }),
  pinned_calls: Schema.Array(PinnedCall),
  recent_searches: Schema.Array(RecentSearch).annotations({ description: "Newest first" }),
  alerts: Schema.Array(AccountAlert),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "WorkspaceState" })

// ---------------------------------------------------------------------------------------------
// Search

/** The search text's bounds: at least 2 characters besides spaces, at most 200. */
export const SEARCH_QUERY_MAX = 200

export const SearchParams = Schema.Struct({
  q: Text.pipe(
    Schema.minLength(2),
    Schema.maxLength(SEARCH_QUERY_MAX),
    Schema.filter((q) => q.trim().length >= 2 || "must hold at least 2 characters besides spaces")
  ).annotations({
    description:
      "Search text, 2 to 200 characters, in web-search syntax: words (all must match), `\"quoted phrases\"`, " +
      "`-word` to exclude, `or` between alternatives. Words are matched by their English stem; stop words are ignored."
  }),
  limit: queryInt({ min: 1, max: 100, default: 20, description: "Hits returned: 1 to 100, default 20" }),
  offset: queryInt({ min: 0, max: 1_000_000, default: 0, description: "Hits to skip (in the results' order), default 0" })
})

export const SearchHitKind = Schema.Literal("call", "transcript", "closer", "note")

export const SearchHit = Schema.Struct({
  kind: SearchHitKind.annotations({
    description:
      "`transcript`: the call's transcript matched; `call`: its metadata (external id, closer, date as YYYY-MM-DD); " +
      "`closer`: a closer (name, e-mail, team); `note`: an outcome note or a manual audit's notes"
  }),
  id: Text.annotations({ description: "call_id (kinds transcript, call; an outcome note), closer_id or audit_id" }),
  call_id: Schema.NullOr(CallId),
  title: Text,
  snippet: Text.annotations({ description: "Matched text, HTML-escaped, the matches wrapped in `<b>…</b>`" }),
  rank: Schema.Number,
  at: Schema.NullOr(Timestamp).annotations({ description: "When the call happened or the record changed" }),
  start: Schema.NullOr(Schema.Number).annotations({
    description: "Transcript hits: seconds into the call of the segment that matched best (the report's `transcript[].start`)"
  })
}).annotations({ identifier: "SearchHit" })

export const SearchResults = Schema.Struct({
  q: Text,
  results: Schema.Array(SearchHit).annotations({ description: "Best rank first, then the newest (then kind and id: a stable order for paging)" }),
  total: Schema.Number.annotations({
    description: "Hits in all (those the caller may see), of which `limit` at most are returned, from `offset`; more follow while `offset` + `results` < `total`"
  })
}).annotations({ identifier: "SearchResults" })

// ---------------------------------------------------------------------------------------------
// Chat, actions, channels

export class WorkspaceChatRequest extends Schema.Class<WorkspaceChatRequest>("WorkspaceChatRequest")({
  message: NonEmptyTrimmedText.pipe(Schema.maxLength(4000)),
  conversation_id: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(100))),
  call_id: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(100))).annotations({
    description: "Ask about this call"
  })
}) {}

export const WorkspaceChatReply = Schema.Struct({
  conversation_id: Text,
  reply: Text,
  intent: Schema.NullOr(Text),
  sources: Schema.Array(AnswerSource),
  suggested_actions: Schema.Array(SuggestedAction)
}).annotations({ identifier: "WorkspaceChatReply" })

export const WorkspaceActionName = Schema.Literal(
  "reanalyze_call",
  "record_outcome",
  "send_brief",
  "pin_call",
  "unpin_call"
)

export class WorkspaceActionRequest extends Schema.Class<WorkspaceActionRequest>("WorkspaceActionRequest")({
  action: WorkspaceActionName,
  params: Schema.optionalWith(Payload, { default: () => ({}) }).annotations({
    description:
      "Arguments of the action: `call_id` for call actions; `record_outcome` also takes the fields of " +
      "`OutcomeTruthRequest`; `send_brief` takes `channel`"
  })
}, [undefined, undefined, { identifier: "WorkspaceActionRequest" }]) {} // names the encoded side in OpenAPI

export const WorkspaceActionResult = Schema.Struct({
  action: WorkspaceActionName,
  status: Schema.Literal("done", "queued"),
  message: Text,
  result: Payload
}).annotations({ identifier: "WorkspaceActionResult" })

export const WorkspaceChannel = Schema.Literal("messenger-a", "messenger-b", "email")

export class WorkspaceChannelRequest extends Schema.Class<WorkspaceChannelRequest>("WorkspaceChannelRequest")({
  channel: WorkspaceChannel,
  text: NonEmptyTrimmedText.pipe(Schema.maxLength(4000)),
  to: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(254))).annotations({
    description: "E-mail recipient (channel `email`; default the signed-in user); messengers send to the tenant's linked chats"
  })
}) {}

export const ChannelDelivery = Schema.Struct({
  channel: WorkspaceChannel,
  delivered: Schema.Number.annotations({ description: "Chats or recipients reached" }),
  message_ids: Schema.Array(Text),
  sent_at: Timestamp
}).annotations({ identifier: "ChannelDelivery" })

// ---------------------------------------------------------------------------------------------
// Dashboard briefs

export const RiskLevel = Schema.Literal("low", "medium", "high")

export const MeetingPrep = Schema.Struct({
  title: Text,
  starts_at: Schema.NullOr(Timestamp),
  closer_email: Schema.NullOr(Text),
  attendees: Schema.Array(Text),
  previous_call_id: Schema.NullOr(Text),
  talking_points: Schema.Array(Text),
  open_questions: Schema.Array(Text),
  risks: Schema.Array(Text)
}).annotations({ identifier: "MeetingPrep" })

export const MeetingPrepBrief = Schema.Struct({
  client_id: ClientId,
  meetings: Schema.Array(MeetingPrep).annotations({ description: "Upcoming meetings, soonest first" }),
  generated_at: Timestamp
}).annotations({ identifier: "MeetingPrepBrief" })

export const DealCallPoint = Schema.Struct({
  call_id: CallId,
  meeting_at: Timestamp,
  closer_email: Schema.NullOr(Text),
  overall_score: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "DealCallPoint" })

export const DealScoreTrend = Schema.Struct({
  first: Schema.NullOr(Schema.Number),
  last: Schema.NullOr(Schema.Number),
  change: Schema.NullOr(Schema.Number).annotations({ description: "last minus first; null with fewer than two scored calls" }),
  direction: Schema.Literal("up", "down", "flat", "none").annotations({
    description: "`up` at +5 or more, `down` at -5 or less, `flat` between, `none` with fewer than two scored calls"
  }),
  scores: Schema.Array(Schema.Struct({ call_id: CallId, score: Schema.Number })).annotations({ description: "Oldest call first" })
}).annotations({ identifier: "DealScoreTrend" })

export const DealObjectionTrack = Schema.Struct({
  kind: Text,
  raised_in: Schema.Array(CallId).annotations({ description: "The calls that raised it, oldest first" }),
  state: Schema.Literal("resolved", "open").annotations({
    description: "`resolved`: a later call of the deal took place without it being raised again; else `open`"
  }),
  last_quote: Text,
  last_response: Text
}).annotations({ identifier: "DealObjectionTrack" })

export const DealStepFollowThrough = Schema.Struct({
  call_id: CallId,
  quote: Text,
  due_text: Schema.NullOr(Text),
  due_date: Schema.NullOr(Text).annotations({ description: "The day the due names, from the call's meeting (YYYY-MM-DD, UTC)" }),
  state: Schema.Literal("kept", "slipped", "open", "undated").annotations({
    description: "`kept`: a later call of the deal by the due day (+1 day); `slipped`: that passed without one; `open`: not yet due; `undated`: no due read"
  })
}).annotations({ identifier: "DealStepFollowThrough" })

export const DealInsight = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text).annotations({
    description: "The deal's call's id in the uploader's system (the upload's `external_call_id`); null when it gave none"
  }),
  closer_email: Schema.NullOr(Text),
  stage: Schema.NullOr(Text),
  outcome: Schema.NullOr(DealOutcome),
  deal_value: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Text),
  risk: RiskLevel,
  signals: Schema.Array(Text).annotations({ examples: [["price objection unanswered", "no next step agreed"]] }),
  next_step: Schema.NullOr(Text),
  deal_id: Schema.NullOr(Text).annotations({ description: "The deal's id; null: a call of no deal, shown as a deal of its own (docs/deals.md)" }),
  external_deal_id: Schema.NullOr(Text).annotations({ description: "The deal's id in your system or CRM (the upload's `deal_id`)" }),
  account: Schema.NullOr(CallAccount),
  calls: Schema.Array(DealCallPoint).annotations({ description: "The deal's calls you see, oldest first; `call_id` above is the latest" }),
  score_trend: DealScoreTrend,
  objections: Schema.Array(DealObjectionTrack).annotations({ description: "Each kind raised over the deal, first raised first" }),
  next_steps: Schema.Array(DealStepFollowThrough).annotations({ description: "Every next step of the deal's calls, and whether it was kept" }),
  stakeholders: Schema.Array(Text).annotations({
    description: "The distinct attendees' addresses over the deal's calls, the tenant's own domains left out"
  }),
  risk_reasons: Schema.Array(Text).annotations({
    description: "Why the deal's risk is above its latest call's: slipped steps, a falling score, an objection that keeps coming back"
  })
}).annotations({ identifier: "DealInsight" })

export const DealIntelligence = Schema.Struct({
  client_id: ClientId,
  deals: Schema.Array(DealInsight).annotations({ description: "Highest risk first" }),
  generated_at: Timestamp
}).annotations({ identifier: "DealIntelligence" })

export const CloserHealth = Schema.Struct({
  closer_id: Schema.NullOr(CloserId),
  email: Text,
  full_name: Schema.NullOr(Text),
  calls_analysed: Schema.Number,
  average_score: Schema.NullOr(Schema.Number),
  score_change: Schema.NullOr(Schema.Number),
  talk_ratio: Schema.NullOr(Schema.Number),
  weakest_dimension: Schema.NullOr(ScorecardDimensionName),
  health: Schema.Literal("healthy", "watch", "at_risk")
}).annotations({ identifier: "CloserHealth" })

export const TeamHealth = Schema.Struct({
  client_id: ClientId,
  period_start: Timestamp,
  period_end: Timestamp,
  team: Schema.Struct({
    closers: Schema.Number,
    calls_analysed: Schema.Number,
    average_score: Schema.NullOr(Schema.Number),
    score_change: Schema.NullOr(Schema.Number),
    talk_ratio: Schema.NullOr(Schema.Number)
  }),
  closers: Schema.Array(CloserHealth),
  generated_at: Timestamp
}).annotations({ identifier: "TeamHealth" })

// ---------------------------------------------------------------------------------------------
// The group

const nullWhenAssistantOff = "; null (200) when the assistant component is switched off for the tenant"

export class WorkspaceApi extends HttpApiGroup.make("workspace")
  .add(
    HttpApiEndpoint.post("createSession", "/session")
      .addSuccess(WorkspaceSession)
      .annotate(OpenApi.Summary, "Creates a workspace session for the signed-in user")
  )
  .add(
    HttpApiEndpoint.get("getState", "/state")
      .addSuccess(WorkspaceState)
      .annotate(OpenApi.Summary, "The workspace state: pinned calls, recent searches, alerts")
  )
  .add(
    HttpApiEndpoint.get("search", "/search")
      .setUrlParams(SearchParams)
      .addSuccess(SearchResults)
      .annotate(
        OpenApi.Summary,
        "Full-text search over the tenant's calls, transcripts, closers and notes, with ranked snippets; " +
          "transcript hits give the second they are at"
      )
  )
  .add(
    HttpApiEndpoint.post("chat", "/chat")
      .setPayload(strictBody(WorkspaceChatRequest))
      .addSuccess(WorkspaceChatReply)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Chat about the tenant's calls and deals; 404 for an unknown `call_id`")
  )
  .add(
    HttpApiEndpoint.post("runAction", "/actions/run")
      .setPayload(strictBody(WorkspaceActionRequest))
      .addSuccess(WorkspaceActionResult)
      .addError(NotFound)
      .addError(Conflict)
      .addError(PaymentRequired)
      .annotate(
        OpenApi.Summary,
        "Run a workspace action (reanalyze_call, record_outcome, send_brief, pin_call, unpin_call); " +
          "404 for an unknown call, 409 when the call's state does not allow it, 402 when a reanalysis has no credit"
      )
  )
  .add(
    HttpApiEndpoint.post("sendToChannel", "/channel/send")
      .setPayload(strictBody(WorkspaceChannelRequest))
      .addSuccess(ChannelDelivery)
      .addError(Conflict)
      .annotate(
        OpenApi.Summary,
        "Send a message through a companion channel or e-mail; 409 when the channel has no linked chat"
      )
  )
  .add(
    HttpApiEndpoint.get("getMeetingPrepBrief", "/meeting-prep-brief")
      .addSuccess(Schema.NullOr(MeetingPrepBrief))
      .annotate(OpenApi.Summary, "Dashboard brief: preparation for upcoming meetings" + nullWhenAssistantOff)
  )
  .add(
    HttpApiEndpoint.get("getDealIntelligence", "/deal-intelligence")
      .addSuccess(Schema.NullOr(DealIntelligence))
      .annotate(OpenApi.Summary, "Dashboard brief: deals with their risk and signals" + nullWhenAssistantOff)
  )
  .add(
    HttpApiEndpoint.get("getTeamHealth", "/team-health")
      .addSuccess(Schema.NullOr(TeamHealth))
      .annotate(OpenApi.Summary, "Dashboard brief: the team's and each closer's health" + nullWhenAssistantOff)
  )
  .add(
    HttpApiEndpoint.get("getCall", "/calls/:call_id")
      .setPath(Schema.Struct({ call_id: CallId }))
      .addSuccess(CallAnalysis)
      .addError(NotFound)
      .annotate(
        OpenApi.Summary,
        "Full call analysis details including scores and profiling: metrics, scorecard, evidence, speaker turns, transcript"
      )
  )
  .prefix("/v1/workspace")
  .middleware(SessionAuth)
  .annotate(OpenApi.Title, "Workspace")
  .annotate(OpenApi.Description, "The workspace interface: session, state, search, chat, actions, channel send, briefs and call details.")
{}
