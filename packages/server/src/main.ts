/**
 * The process: configuration, database (PostgreSQL when `DATABASE_URL` is set, embedded PGlite
 * under `DATA_DIR` otherwise), migrations, then the HTTP server. SIGTERM interrupts the main
 * fiber: the server stops accepting, in-flight requests finish, then the pool closes.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { join } from "node:path"
import { AppConfig } from "./config.js"
import { layerPglite, layerPostgres } from "./db/Database.js"
import { MigrationsLive } from "./db/Migrations.js"
import { WorkersLive } from "./audio/Worker.js"
import { RateLimiterLive } from "./auth/RateLimitStore.js"
import { CompanionChannelsLive } from "./companion/CompanionChannelsLive.js"
import { CrmSyncLive } from "./integrations/CrmSync.js"
import { LlmAssistantsLive } from "./integrations/LlmAssistantsLive.js"
import { MeetingCalendarsLive } from "./integrations/MeetingCalendarsLive.js"
import { MeetingTokensRefresherLive } from "./integrations/MeetingConnections.js"
import { SpeechIntegrationsLive } from "./integrations/SpeechIntegrationsLive.js"
import { OutcomeRecordsLive } from "./portal/OutcomeRecordsLive.js"
import { DealViewsLive } from "./workspace/DealViewsLive.js"
import { QualificationFrameworksLive } from "./portal/QualificationFrameworksLive.js"
import { RepChannelsLive } from "./portal/RepChannelsLive.js"
import { CallTrackersLive } from "./trackers/CallTrackersLive.js"
import { RecorderSchedulerLive } from "./recorder/Scheduler.js"
import { RetentionPassesLive } from "./account/RetentionPasses.js"
import { TrendsSettlePassesLive } from "./trends/SettlePass.js"
import { WebhookSenderLive } from "./webhooks/WebhookSender.js"
import { makeHttpLayer } from "./HttpApp.js"
import { LoggerLive, TracingLive, withShutdownLines } from "./Observability.js"

/** The database the configuration names, with the migrations run on it. */
export const DatabaseLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onSome: (url) => layerPostgres({ url, maxConnections: config.dbPoolMax, applicationName: "callsight" }),
      onNone: () => layerPglite({ dataDir: join(config.dataDir, "db") })
    })
  )
)

/**
 * The analysis workers, with what they read of the features: each tenant's qualification framework
 * and default rep channel (portal), its own speech-to-text provider and its LLM (integrations).
 */
const AnalysisWorkersLive = WorkersLive.pipe(
  Layer.provide([QualificationFrameworksLive, RepChannelsLive, SpeechIntegrationsLive, LlmAssistantsLive, CallTrackersLive]),
  // the portal's profiles, which the first two read, keep the Competitors tracker in step when saved
  Layer.provide(CallTrackersLive)
)

/** The recorder's scheduling and polling passes, with the closers' calendars (integrations). */
const RecorderPassesLive = RecorderSchedulerLive.pipe(Layer.provide(MeetingCalendarsLive))

/**
 * The companion channels as the admin's operations and the workspace see them (the companion implements them); the
 * same `Companion` and rate limiter the companion's webhooks use (layers are built once).
 */
const CompanionForAdminLive = CompanionChannelsLive.pipe(Layer.provide(RateLimiterLive))

/**
 * What runs beside the HTTP service (and in `callsight worker`): the analysis workers, the
 * refresher of the closers' meeting-tool tokens, the crm-a outcome sync, the recorder's passes, the
 * webhook sender, the retention pass and the trends' settling pass.
 */
const BackgroundLive = Layer.mergeAll(
  AnalysisWorkersLive,
  MeetingTokensRefresherLive,
  CrmSyncLive,
  RecorderPassesLive,
  WebhookSenderLive,
  RetentionPassesLive,
  TrendsSettlePassesLive
)

/**
 * Node's server with its timeouts: headers, and the whole request, must arrive in time, else Node
 * answers 408 and closes (checked every second); an idle connection is closed. None of these
 * applies once a request has arrived whole: a request the application never answers is cut off by
 * the idle timeout alone.
 */
const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    NodeHttpServer.layer(() => {
      const server = createServer({
        headersTimeout: config.httpHeadersTimeoutSeconds * 1000,
        requestTimeout: config.httpRequestTimeoutSeconds * 1000,
        keepAliveTimeout: 5_000,
        connectionsCheckingInterval: 1_000
      })
      server.setTimeout(config.httpIdleTimeoutSeconds * 1000)
      return server
    }, { port: config.port, host: config.host }))
)

/**
 * The HTTP service on a given server and database; the database is migrated before it listens.
 * Tests pass the test server and a fresh database.
 */
export const makeServerLayer = <S, E1, R1, D, E2, R2>(
  server: Layer.Layer<S, E1, R1>,
  database: Layer.Layer<D, E2, R2>,
  options: { readonly workers?: boolean } = {}
) =>
  Layer.merge(
    makeHttpLayer(server).pipe(Layer.provide([CompanionForAdminLive, OutcomeRecordsLive, MeetingCalendarsLive, LlmAssistantsLive, CallTrackersLive, DealViewsLive])),
    options.workers === true ? BackgroundLive : Layer.empty
  ).pipe(Layer.provide(MigrationsLive), Layer.provideMerge(database))

/** A process configured from the environment, with its logger and tracing, saying when it stops. */
const fromEnvironment = <A, E, R>(what: "server" | "worker", layer: Layer.Layer<A, E, R>) =>
  withShutdownLines(what, layer).pipe(Layer.provide(TracingLive), Layer.provide(LoggerLive), Layer.provide(AppConfig.layer))

/** `callsight serve`: the HTTP service and, unless `workers` is false, the analysis workers. */
export const makeServeLive = (options: { readonly workers: boolean }) =>
  fromEnvironment("server", makeServerLayer(NodeServerLive, DatabaseLive, options))

export const ServeLive = makeServeLive({ workers: true })

/** `callsight worker`: the analysis workers alone. */
export const WorkerLive = fromEnvironment("worker", BackgroundLive.pipe(Layer.provide(MigrationsLive), Layer.provideMerge(DatabaseLive)))
