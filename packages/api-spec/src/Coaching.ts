/**
 * 4.5 Coaching (prefix /v1/coaching): onboarding steps (welcome, oath), a per-closer dashboard,
 * manual audits scored beside the automated scorecard, and a wiki of seeded articles with read
 * progress. Every operation takes the portal session cookie; progress is kept per signed-in user.
 * Any signed-in user reads everything and keeps their own steps and progress; manual audits are
 * made by owners and admins (the tenant's managers), read by everyone of the tenant.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ScorecardDimensionName } from "./CallAnalysis.js"
import { CallWorthReviewing, ScoreTrendPoint } from "./ClientPortal.js"
import { CallId, CloserId, queryInt, Text, Timestamp, UserId, TextRecord, strictBody } from "./Common.js"
import { Conflict, Forbidden, NotFound } from "./Errors.js"
import { SessionAuth } from "./Security.js"

const Percent = Schema.Number.pipe(Schema.between(0, 100))

const dimensionNames: ReadonlyArray<string> = ScorecardDimensionName.literals

// ---------------------------------------------------------------------------------------------
// Onboarding status, welcome and oath
// ---------------------------------------------------------------------------------------------

export const CoachingStep = Schema.Literal("welcome", "oath", "wiki", "manual_audit")

export const CoachingStepStatus = Schema.Struct({
  step: CoachingStep,
  label: Text,
  done: Schema.Boolean,
  done_at: Schema.NullOr(Timestamp).annotations({ description: "When the step was done; null while it is not" })
}).annotations({ identifier: "CoachingStepStatus" })

export class OathCompleteRequest extends Schema.Class<OathCompleteRequest>("OathCompleteRequest")({
  signature_name: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200)).annotations({
    description: "The name the user signs with"
  }),
  commitments: Schema.Array(
    Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(500))
  ).pipe(Schema.minItems(1), Schema.maxItems(20)).annotations({
    description: "What the user commits to, one sentence each"
  })
}) {}

export const CoachingOath = Schema.Struct({
  signature_name: Text,
  commitments: Schema.Array(Text),
  signed_at: Timestamp
}).annotations({ identifier: "CoachingOath" })

export const CoachingStatus = Schema.Struct({
  user_id: UserId,
  welcome_completed: Schema.Boolean,
  welcome_completed_at: Schema.NullOr(Timestamp),
  oath_signed: Schema.Boolean,
  oath: Schema.NullOr(CoachingOath),
  articles_read: Schema.Number.annotations({ description: "Articles read to 100%" }),
  articles_total: Schema.Number,
  manual_audits: Schema.Number.annotations({ description: "Manual audits made by this user" }),
  steps: Schema.Array(CoachingStepStatus).annotations({
    description: "The user's steps in order: welcome, oath, wiki (every article read), and for owners and admins " +
      "manual_audit (at least one made); members, who do not audit, have the first three"
  }),
  completion_pct: Percent.annotations({ description: "Steps done of the user's steps, in percent, rounded" }),
  next_step: Schema.NullOr(CoachingStep).annotations({ description: "The first step not done; null when every step is done" })
}).annotations({ identifier: "CoachingStatus" })

// ---------------------------------------------------------------------------------------------
// Dashboard
// ---------------------------------------------------------------------------------------------

export const CoachingFocus = Schema.Struct({
  dimension: ScorecardDimensionName,
  average_score: Schema.Number.annotations({ description: "The closer's mean score of the dimension over the last 4 weeks" }),
  calls: Schema.Number.annotations({ description: "The closer's calls of the last 4 weeks that assessed the dimension" }),
  team_average_score: Schema.NullOr(Schema.Number).annotations({
    description: "The team's mean score of the dimension over the same 4 weeks"
  }),
  article_slug: Schema.NullOr(Text).annotations({ description: "The wiki article that teaches this dimension" }),
  article_title: Schema.NullOr(Text)
}).annotations({ identifier: "CoachingFocus" })

export const AuditGap = Schema.Struct({
  dimension: ScorecardDimensionName,
  mean_gap: Schema.Number.annotations({
    description: "Mean of manual minus automated: above 0, the tenant's managers score this dimension higher than the machine"
  }),
  mean_absolute_gap: Schema.Number,
  audits: Schema.Number.annotations({ description: "Audits that scored the dimension where the machine assessed it too" })
}).annotations({ identifier: "AuditGap" })

export const CloserCoaching = Schema.Struct({
  closer_id: CloserId,
  full_name: Text,
  email: Text,
  calls_this_week: Schema.Number,
  average_score: Schema.NullOr(Schema.Number).annotations({ description: "Over the weeks of `score_trend`" }),
  score_trend: Schema.Array(ScoreTrendPoint).annotations({
    description: "The last 8 weeks (Monday to Sunday, UTC, by when the meeting took place: `meeting_at`, else the upload time), oldest first"
  }),
  focus: Schema.NullOr(CoachingFocus).annotations({
    description: "The weakest dimension of the last 4 weeks: this week's focus; null without an assessed dimension"
  }),
  calls_to_review: Schema.Array(CallWorthReviewing).annotations({
    description: "Of the last 4 weeks: the 3 lowest scores, and the 2 calls whose manual audit is furthest from the machine " +
      "(10 points or more on average), each with its reason"
  })
}).annotations({ identifier: "CloserCoaching" })

export const CoachingDashboard = Schema.Struct({
  generated_at: Timestamp,
  week_start: Text.annotations({ description: "Calendar date of this week's Monday (YYYY-MM-DD, UTC)" }),
  team: Schema.Struct({
    closers: Schema.Number,
    calls_this_week: Schema.Number,
    average_score: Schema.NullOr(Schema.Number),
    score_trend: Schema.Array(ScoreTrendPoint)
  }).annotations({ description: "The closers below together: the calls of every closer not removed" }),
  closers: Schema.Array(CloserCoaching),
  audit_gaps: Schema.Array(AuditGap).annotations({
    description: "Over every manual audit of the tenant, per dimension: how far the machine is from the tenant's own managers"
  })
}).annotations({ identifier: "CoachingDashboard" })

// ---------------------------------------------------------------------------------------------
// Manual audits
// ---------------------------------------------------------------------------------------------

export const ManualScores = TextRecord(Percent).pipe(
  Schema.filter((scores) => {
    const keys = Object.keys(scores)
    if (keys.length === 0) return "must score at least one dimension"
    const unknown = keys.filter((k) => !dimensionNames.includes(k))
    return unknown.length === 0 || `unknown dimension(s): ${unknown.join(", ")}; expected ${dimensionNames.join(", ")}`
  })
).annotations({
  description: `Score 0–100 by scorecard dimension (${dimensionNames.join(", ")}); at least one`,
  jsonSchema: {
    description: `Score 0–100 by scorecard dimension (${dimensionNames.join(", ")}); at least one`,
    propertyNames: { enum: dimensionNames },
    minProperties: 1
  }
})

export class ManualAuditRequest extends Schema.Class<ManualAuditRequest>("ManualAuditRequest")({
  call_id: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(100)),
  scores: ManualScores,
  notes: Text.pipe(Schema.maxLength(10_000))
}) {}

export const ManualAuditDimension = Schema.Struct({
  dimension: ScorecardDimensionName,
  manual_score: Schema.Number,
  automated_score: Schema.NullOr(Schema.Number).annotations({ description: "null when the analysis did not assess it" }),
  gap: Schema.NullOr(Schema.Number).annotations({ description: "manual minus automated" })
}).annotations({ identifier: "ManualAuditDimension" })

export const ManualAudit = Schema.Struct({
  audit_id: Text,
  call_id: CallId,
  external_call_id: Schema.NullOr(Text).annotations({ description: "The audited call's id in the uploader's system (the upload's `external_call_id`); null when it gave none" }),
  closer_id: Schema.NullOr(CloserId),
  closer_email: Schema.NullOr(Text),
  auditor_user_id: Text,
  auditor_name: Schema.NullOr(Text),
  scores: TextRecord(Schema.Number),
  dimensions: Schema.Array(ManualAuditDimension),
  manual_overall: Schema.NullOr(Schema.Number).annotations({ description: "Mean of the manual scores" }),
  automated_overall: Schema.NullOr(Schema.Number),
  mean_absolute_gap: Schema.NullOr(Schema.Number),
  notes: Text,
  created_at: Timestamp
}).annotations({ identifier: "ManualAudit" })

export const ManualAuditList = Schema.Struct({
  audits: Schema.Array(ManualAudit).annotations({ description: "Newest first" }),
  total: Schema.Number.annotations({ description: "Audits matching, before the page" }),
  limit: Schema.Number,
  offset: Schema.Number
}).annotations({ identifier: "ManualAuditList" })

export const ManualAuditParams = Schema.Struct({
  limit: queryInt({ min: 1, max: 200, default: 50, description: "Audits per page: 1 to 200, default 50" }),
  offset: queryInt({ min: 0, max: 1_000_000, default: 0, description: "Audits to skip (newest first), default 0" }),
  call_id: Schema.optional(Text.annotations({ description: "Only the audits of this call" }))
})

// ---------------------------------------------------------------------------------------------
// Wiki
// ---------------------------------------------------------------------------------------------

export const WikiArticleSummary = Schema.Struct({
  slug: Text,
  title: Text,
  summary: Text,
  reading_minutes: Schema.Number.annotations({ description: "Words of the article / 200, rounded up, at least 1" }),
  dimensions: Schema.Array(ScorecardDimensionName).annotations({ description: "Scorecard dimensions it teaches" }),
  progress_pct: Percent,
  completed: Schema.Boolean
}).annotations({ identifier: "WikiArticleSummary" })

export const WikiSection = Schema.Struct({
  section_id: Text,
  title: Text,
  description: Text,
  position: Schema.Number,
  articles: Schema.Array(WikiArticleSummary)
}).annotations({ identifier: "WikiSection" })

export const WikiSectionList = Schema.Struct({
  sections: Schema.Array(WikiSection),
  articles_read: Schema.Number,
  articles_total: Schema.Number
}).annotations({ identifier: "WikiSectionList" })

export const WikiArticle = Schema.Struct({
  slug: Text,
  title: Text,
  section_id: Text,
  section_title: Text,
  summary: Text,
  body_markdown: Text,
  reading_minutes: Schema.Number,
  dimensions: Schema.Array(ScorecardDimensionName).annotations({ description: "Scorecard dimensions it teaches" }),
  metrics: Schema.Array(Text).annotations({ description: "The call metrics it explains" }),
  progress_pct: Percent,
  completed_at: Schema.NullOr(Timestamp),
  previous_slug: Schema.NullOr(Text).annotations({ description: "In reading order: sections by position, then articles" }),
  next_slug: Schema.NullOr(Text),
  updated_at: Timestamp.annotations({ description: "When the article's text last changed" })
}).annotations({ identifier: "WikiArticle" })

export class ArticleProgressRequest extends Schema.Class<ArticleProgressRequest>("ArticleProgressRequest")({
  slug: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200)),
  progress_pct: Percent
}) {}

export const ArticleProgress = Schema.Struct({
  slug: Text,
  progress_pct: Percent.annotations({ description: "The highest progress recorded; it never goes down" }),
  completed: Schema.Boolean,
  completed_at: Schema.NullOr(Timestamp),
  updated_at: Timestamp,
  articles_read: Schema.Number,
  articles_total: Schema.Number
}).annotations({ identifier: "ArticleProgress" })

// ---------------------------------------------------------------------------------------------
// The group
// ---------------------------------------------------------------------------------------------

export class CoachingApi extends HttpApiGroup.make("coaching")
  .add(
    HttpApiEndpoint.get("getCoachingStatus", "/status")
      .addSuccess(CoachingStatus)
      .annotate(OpenApi.Summary, "Coaching status: welcome done, oath signed, articles read of total, next step")
  )
  .add(
    HttpApiEndpoint.post("completeWelcome", "/welcome/complete")
      .addSuccess(CoachingStatus)
      .annotate(OpenApi.Summary, "Mark the coaching welcome done")
      .annotate(OpenApi.Description, "Idempotent: the first completion time is kept. Answers the updated status.")
  )
  .add(
    HttpApiEndpoint.post("completeOath", "/oath/complete")
      .setPayload(strictBody(OathCompleteRequest))
      .addSuccess(CoachingStatus)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Sign the coaching oath")
      .annotate(
        OpenApi.Description,
        "Kept with its time and the signer. Signed once: signing again is 409 and leaves the first signature. " +
          "Answers the updated status."
      )
  )
  .add(
    HttpApiEndpoint.get("getCoachingDashboard", "/dashboard")
      .addSuccess(CoachingDashboard)
      .annotate(
        OpenApi.Summary,
        "Coaching dashboard: per closer the score trend, the weakest dimension as this week's focus, and calls to review"
      )
  )
  .add(
    HttpApiEndpoint.get("listManualAudits", "/manual-audits")
      .setUrlParams(ManualAuditParams)
      .addSuccess(ManualAuditList)
      .annotate(OpenApi.Summary, "List the tenant's manual audits, newest first")
  )
  .add(
    HttpApiEndpoint.post("createManualAudit", "/manual-audits")
      .setPayload(strictBody(ManualAuditRequest))
      .addSuccess(ManualAudit)
      .addError(NotFound)
      .addError(Conflict)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Create a manual audit of a call")
      .annotate(
        OpenApi.Description,
        "Owners and admins (403 for members). Stored with the call's automated scores of that moment beside the " +
          "manual ones and the gap per dimension (manual minus automated; null where the machine did not assess the " +
          "dimension). 404 for an unknown call or another tenant's; 409 when the call's analysis is not completed."
      )
  )
  .add(
    HttpApiEndpoint.get("getManualAudit", "/manual-audits/:audit_id")
      .setPath(Schema.Struct({ audit_id: Text }))
      .addSuccess(ManualAudit)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a manual audit")
  )
  .add(
    HttpApiEndpoint.get("listWikiSections", "/wiki/sections")
      .addSuccess(WikiSectionList)
      .annotate(OpenApi.Summary, "Wiki sections with their articles and the user's read progress")
  )
  .add(
    HttpApiEndpoint.get("getWikiArticle", "/wiki/articles/:slug")
      .setPath(Schema.Struct({ slug: Text }))
      .addSuccess(WikiArticle)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a wiki article (Markdown body) with the user's progress")
  )
  .add(
    HttpApiEndpoint.post("recordArticleProgress", "/wiki/articles/progress")
      .setPayload(strictBody(ArticleProgressRequest))
      .addSuccess(ArticleProgress)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Record read progress of a wiki article")
      .annotate(
        OpenApi.Description,
        "Keeps the highest progress reported; 100 marks the article read. 404 for an unknown slug."
      )
  )
  .prefix("/v1/coaching")
  .middleware(SessionAuth)
  .annotate(OpenApi.Title, "Coaching")
  .annotate(OpenApi.Description, "Coaching for the sales team: onboarding steps, the dashboard, manual audits, the wiki.")
{}
