/**
 * One set of migrations for PostgreSQL and PGlite, statically imported so the bundle carries
 * them. Runs at start-up, before the server listens.
 */
import { Migrator } from "@effect/sql"
import { Effect, Layer } from "effect"
import core from "./migrations/0001_core.js"
import audio from "./migrations/0002_audio.js"
import runtimeFlags from "./migrations/0003_runtime_flags.js"
import portal from "./migrations/0004_portal.js"
import integrations from "./migrations/0005_integrations.js"
import meetingIntegrations from "./migrations/0006_meeting_integrations.js"
import crm from "./migrations/0007_crm.js"
import recorder from "./migrations/0008_recorder.js"
import coaching from "./migrations/0009_coaching.js"
import companion from "./migrations/0010_companion.js"
import marketIntel from "./migrations/0011_market_intel.js"
import search from "./migrations/0012_search.js"
import workspace from "./migrations/0013_workspace.js"
import conversations from "./migrations/0014_conversations.js"
import webhooks from "./migrations/0015_webhooks.js"
import callSetup from "./migrations/0016_call_setup.js"
import members from "./migrations/0017_members.js"
import payments from "./migrations/0018_payments.js"
import retention from "./migrations/0019_retention.js"
import closing from "./migrations/0020_closing.js"
import trackers from "./migrations/0021_trackers.js"
import deals from "./migrations/0022_deals.js"
import closingAudits from "./migrations/0023_closing_audits.js"
import scaleIndexes from "./migrations/0024_scale_indexes.js"
import trendsScale from "./migrations/0025_trends_scale.js"
import viewsScale from "./migrations/0026_views_scale.js"
import trendDueDays from "./migrations/0027_trend_due_days.js"
import readsScale from "./migrations/0028_reads_scale.js"
import transcriptSearch from "./migrations/0029_transcript_search.js"
import mentionTerms from "./migrations/0030_mention_terms.js"
import hygieneCover from "./migrations/0031_hygiene_cover.js"
import trendDays from "./migrations/0032_trend_days.js"
import trendMonths from "./migrations/0033_trend_months.js"
import miTrendCells from "./migrations/0034_mi_trend_cells.js"
import trendWeeks from "./migrations/0035_trend_weeks.js"
import miHygieneCells from "./migrations/0036_mi_hygiene_cells.js"

export const migrations = {
  "0001_core": core,
  "0002_audio": audio,
  "0003_runtime_flags": runtimeFlags,
  "0004_portal": portal,
  "0005_integrations": integrations,
  "0006_meeting_integrations": meetingIntegrations,
  "0007_crm": crm,
  "0008_recorder": recorder,
  "0009_coaching": coaching,
  "0010_companion": companion,
  "0011_market_intel": marketIntel,
  "0012_search": search,
  "0013_workspace": workspace,
  "0014_conversations": conversations,
  "0015_webhooks": webhooks,
  "0016_call_setup": callSetup,
  "0017_members": members,
  "0018_payments": payments,
  "0019_retention": retention,
  "0020_closing": closing,
  "0021_trackers": trackers,
  "0022_deals": deals,
  "0023_closing_audits": closingAudits,
  "0024_scale_indexes": scaleIndexes,
  "0025_trends_scale": trendsScale,
  "0026_views_scale": viewsScale,
  "0027_trend_due_days": trendDueDays,
  "0028_reads_scale": readsScale,
  "0029_transcript_search": transcriptSearch,
  "0030_mention_terms": mentionTerms,
  "0031_hygiene_cover": hygieneCover,
  "0032_trend_days": trendDays,
  "0033_trend_months": trendMonths,
  "0034_mi_trend_cells": miTrendCells,
  "0035_trend_weeks": trendWeeks,
  "0036_mi_hygiene_cells": miHygieneCells
}

export const runMigrations = Migrator.make({})({ loader: Migrator.fromRecord(migrations) }).pipe(
  Effect.tap((applied) =>
    applied.length > 0
      ? Effect.logInfo("migrations applied").pipe(
        Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`).join(","))
      )
      : Effect.void
  ),
  Effect.withSpan("Migrations.run")
)

/** A layer that has run the migrations: everything that serves requests depends on it. */
export const MigrationsLive = Layer.effectDiscard(runMigrations)
