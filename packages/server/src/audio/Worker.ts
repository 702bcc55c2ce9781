/**
 * The analysis worker: `WORKER_CONCURRENCY` loops in this process, each claiming a job, analysing
 * its call under a renewed lease, and recording the outcome. The credit is taken in the same
 * transaction that marks the call completed, for calls uploaded through the API only (the
 * recorder's count against the monthly ingests instead); failures take none. A job is tried at most
 * `MAX_ATTEMPTS` times with growing back-off; a file that cannot be analysed fails at once, and so
 * does a call whose speech-to-text provider still fails after its own retries
 * (`transcription_failed`): uploading the file again analyses it afresh. The tenant's LLM, when it
 * saved one, assesses the transcript after the rules; its failures never fail the call nor cost
 * more than the one credit (they are recorded in the analysis's `llm.error` and on the integration).
 * The call's webhooks (events/WebhookOutbox.ts) are written in the transaction that completes or
 * fails it: they exist if and only if the status change was committed.
 * A call's error is blanked (lib/Redact.ts, every encoding) before it is written anywhere (the call,
 * its job, its event, its webhooks, the LLM's error in its result): a second line of defence behind
 * the provider requests' own, with the secrets known here, the server's configured keys and the
 * tenant's own speech-to-text and LLM keys.
 * Each analysis writes a log line when it starts (`analysis started`) and one when it ends
 * (`analysis completed`, or `analysis failed` at warning level), with the call, its tenant
 * (`client_id`), the time since the job was claimed (`duration_ms`) and the credits it took
 * (`credits`: 1 for a completed upload, 0 for a failure, a recorder's call or a re-analysis); an
 * attempt that will be retried, and a job handed back at shutdown, say so too. The error of a
 * failure is logged as it is stored: blanked.
 * An idle loop waits for a job to be announced (`JobsRepo.queued`: queued by any process on the
 * database, at its commit) or for `WORKER_POLL_MS`, whichever comes first: an upload starts at once,
 * and the poll still finds what nobody announces (a retry's back-off ending, an expired lease) or a
 * notification lost.
 */
import type { CallId } from "@callsight/api-spec"
import { Clock, Data, Duration, Effect, Layer, Option, PubSub, Queue, Schedule, Stream } from "effect"
import { hostname } from "node:os"
import type { AnalysisResult, AnalysisStage } from "@callsight/analysis"
import { BlobStore } from "../calls/BlobStore.js"
import { CallsRepo, type JobCall } from "../calls/CallsRepo.js"
import { type ClaimedJob, JobsRepo } from "../calls/JobsRepo.js"
import { WorkersRepo } from "../calls/WorkersRepo.js"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { EventsRepo } from "../events/EventsRepo.js"
import { WebhookOutbox } from "../events/WebhookOutbox.js"
import { analysisEngine } from "../lib/AnalysisEngine.js"
import { newId } from "../lib/Ids.js"
import { redact, redactedValuesOf, type SecretInput } from "../lib/Redact.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { LlmAssistants } from "../ports/LlmAssistants.js"
import { SpeechIntegrations } from "../ports/SpeechIntegrations.js"
import { QualificationFrameworks } from "../ports/QualificationFrameworks.js"
import { RepChannels } from "../ports/RepChannels.js"
import { CallTrackers } from "../ports/CallTrackers.js"
import { Assessors } from "../llm/Assessors.js"
import { Transcribers } from "../transcription/Transcribers.js"

export const MAX_ATTEMPTS = 3

/** Seconds before attempt n + 1: 5, 20, 45, ... */
const backoffSeconds = (attempts: number) => 5 * attempts * attempts

/** Where each stage sits in the whole analysis, for the `progress` fraction. */
const STAGE_SPAN: Record<AnalysisStage, readonly [number, number]> = {
  decode: [0, 0.45],
  diarize: [0.45, 0.85],
  transcribe: [0.85, 0.9],
  score: [0.9, 0.97],
  report: [0.97, 1]
}

class LeaseLost extends Data.TaggedError("LeaseLost")<{ readonly callId: CallId }> {}

export class AnalysisWorker extends Effect.Service<AnalysisWorker>()("AnalysisWorker", {
  scoped: Effect.gen(function* () {
    const transactions = yield* Transactions
    const config = yield* AppConfig
    const jobs = yield* JobsRepo
    const calls = yield* CallsRepo
    const ledger = yield* LedgerRepo
    const events = yield* EventsRepo
    const blobs = yield* BlobStore
    /** The engine's analyzer: loaded, with the engine, by the first analysis of the process (lib/AnalysisEngine.ts). */
    const analyzer = yield* Effect.cached(
      Effect.flatMap(analysisEngine, ({ Analyzer }) => Effect.provide(Analyzer, Analyzer.Default))
    )
    const transcribers = yield* Transcribers
    const assessors = yield* Assessors
    const frameworks = yield* QualificationFrameworks
    const repChannels = yield* RepChannels
    const callTrackers = yield* CallTrackers
    const outbox = yield* WebhookOutbox
    const speechIntegrations = yield* SpeechIntegrations
    const llmAssistants = yield* LlmAssistants
    const workerId = `${hostname()}:${process.pid}:${newId("wrk")}`
    const lease = config.workerLeaseSeconds

    /** The server's own secrets (its providers' keys, its staff keys, ...): blanked out of every error written. */
    const serverSecrets: ReadonlyArray<string> = redactedValuesOf(config)

    /** The secrets known for a tenant's call: the server's, and the tenant's own speech-to-text and LLM keys. */
    const secretsFor = (call: JobCall): Effect.Effect<ReadonlyArray<SecretInput>> =>
      Effect.all([
        Effect.orElseSucceed(speechIntegrations.forTenant(call.client_id), () => Option.none()),
        Effect.orElseSucceed(llmAssistants.forTenant(call.client_id), () => Option.none())
      ]).pipe(
        Effect.map(([speech, llm]) => [
          ...serverSecrets,
          ...Option.toArray(speech).map((i) => i.apiKey),
          ...Option.toArray(llm).map((a) => a.apiKey)
        ])
      )

    /** `text` blanked of the secrets known for the call. */
    const blankFor = (call: JobCall, text: string) => Effect.map(secretsFor(call), (secrets) => redact(text, secrets))

    const event = (call: JobCall, type: "analysis_completed" | "analysis_failed", error: string | null) =>
      events.record({
        clientId: call.client_id,
        type,
        platform: call.source === "recorder" ? "recorder" : "api",
        status: error === null ? "ok" : "error",
        closerEmail: call.closer_email,
        callId: call.call_id,
        error
      })

    /** The fields of an analysis's log lines: the call, its tenant, the time since `started` (ms, from the clock). */
    const logFields = (call: JobCall, started: number) =>
      Effect.map(Clock.currentTimeMillis, (now) => ({ call_id: call.call_id, client_id: call.client_id, duration_ms: now - started }))

    /**
     * Completes the call and takes its credit, in one transaction; answers the credits taken (0 or 1).
     * The tenant's trackers are matched on the stored transcript in the same transaction, so a call
     * read as completed already has its mentions (ports/CallTrackers.ts; a failed match rolls back to
     * its own savepoint and never fails the call).
     */
    const complete = (call: JobCall, result: AnalysisResult) =>
      transactions.run(
        Effect.gen(function* () {
          if (!(yield* jobs.finish(call.call_id, workerId, "done", null))) {
            return yield* new LeaseLost({ callId: call.call_id })
          }
          yield* calls.complete(call.call_id, result)
          yield* callTrackers.matchCall(call.client_id, call.call_id)
          // A call the recorder brought counts against the monthly ingests, not the prepaid credits;
          // a call charged before (a re-analysis) is not charged again.
          const credits = call.source === "api" && (yield* ledger.chargedFor(call.call_id)) === 0 ? 1 : 0
          if (call.source === "api") yield* ledger.chargeAnalysis({ clientId: call.client_id, callId: call.call_id })
          yield* event(call, "analysis_completed", null)
          // The webhooks' outbox: written with the status, sent by the webhook sender after the commit.
          yield* outbox.enqueue(call.call_id, "analysis.completed", null)
          return credits
        })
      )

    const fail = (call: JobCall, code: string, unblanked: string, started: number) =>
      transactions.run(
        Effect.gen(function* () {
          const message = yield* blankFor(call, unblanked)
          if (!(yield* jobs.finish(call.call_id, workerId, "failed", `${code}: ${message}`))) {
            return yield* new LeaseLost({ callId: call.call_id })
          }
          yield* calls.fail(call.call_id, code, message)
          yield* event(call, "analysis_failed", `${code}: ${message}`)
          yield* outbox.enqueue(call.call_id, "analysis.failed", { code, message })
          return message
        })
      ).pipe(
        Effect.flatMap((message) =>
          Effect.flatMap(logFields(call, started), (fields) =>
            Effect.logWarning("analysis failed").pipe(
              Effect.annotateLogs({ ...fields, credits: 0, error_code: code, error: message })
            ))
        )
      )

    const retryOrFail = (call: JobCall, job: ClaimedJob, message: string, started: number) =>
      job.attempts >= MAX_ATTEMPTS
        ? fail(call, "analysis_error", `gave up after ${job.attempts} attempts: ${message}`, started)
        : transactions.run(
          Effect.gen(function* () {
            const blanked = yield* blankFor(call, message)
            if (!(yield* jobs.retryLater(call.call_id, workerId, blanked, backoffSeconds(job.attempts)))) {
              return yield* new LeaseLost({ callId: call.call_id })
            }
            yield* calls.requeue(call.call_id)
            return blanked
          })
        ).pipe(
          Effect.flatMap((blanked) =>
            Effect.flatMap(logFields(call, started), (fields) =>
              Effect.logWarning("analysis attempt failed; it will be retried").pipe(
                Effect.annotateLogs({ ...fields, attempt: job.attempts, retry_in_s: backoffSeconds(job.attempts), error: blanked })
              ))
          )
        )

    /** Renews the lease and writes the latest progress until interrupted; fails when the lease is lost. */
    const keepLease = (callId: CallId, progress: { stage: AnalysisStage; fraction: number }) =>
      Effect.gen(function* () {
        if (!(yield* jobs.renew(callId, workerId, lease))) return yield* new LeaseLost({ callId })
        const [from, to] = STAGE_SPAN[progress.stage]
        yield* calls.setProgress(callId, progress.stage, Math.round((from + (to - from) * progress.fraction) * 1000) / 1000)
      }).pipe(Effect.repeat(Schedule.spaced(Duration.seconds(Math.min(2, lease / 4)))))

    const run = (job: ClaimedJob) =>
      Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const found = yield* calls.findForJob(job.call_id)
        if (Option.isNone(found)) return yield* jobs.finish(job.call_id, workerId, "failed", "call deleted")
        const call = found.value
        // A job claimed again after its lease expired more than MAX_ATTEMPTS times: its worker keeps dying.
        if (job.attempts > MAX_ATTEMPTS) {
          return yield* fail(call, "analysis_error", `no worker finished it in ${MAX_ATTEMPTS} attempts`, started)
        }
        yield* calls.markProcessing(call.call_id)
        yield* Effect.logInfo("analysis started").pipe(
          Effect.annotateLogs({
            call_id: call.call_id,
            client_id: call.client_id,
            attempt: job.attempts,
            format: call.format,
            source: call.source
          })
        )
        const progress = { stage: "decode" as AnalysisStage, fraction: 0 }
        const analysis = Effect.flatMap(
          Effect.all([
            transcribers.forTenant(call.client_id),
            frameworks.forTenant(call.client_id),
            assessors.forTenant(call.client_id),
            // the upload's rep channel, else the tenant's default
            call.rep_channel === null ? repChannels.forTenant(call.client_id) : Effect.succeed(call.rep_channel)
          ]),
          ([transcriber, framework, assessor, repChannel]) =>
            // a local copy when the blobs are in object storage; a store that cannot be read is retried
            blobs.withLocalFile(call.blob_key, (path) =>
              Effect.flatMap(analyzer, (engine) =>
                engine.analyze(path, call.format, {
                  transcribe: Option.getOrUndefined(transcriber)?.transcribe,
                  framework,
                  assist: Option.getOrUndefined(assessor),
                  callType: call.call_type ?? undefined,
                  repChannel,
                  onProgress: (stage, fraction) => {
                    progress.stage = stage
                    progress.fraction = fraction
                  }
                }))).pipe(Effect.catchTag("BlobReadFailed", (e) => Effect.die(e)))
        )
        const outcome = yield* Effect.raceFirst(
          Effect.either(analysis),
          Effect.zipRight(keepLease(call.call_id, progress), Effect.never)
        ).pipe(Effect.sandbox, Effect.either)
        if (outcome._tag === "Left") {
          // A defect of the analysis (or a lost lease): retried, unless this was the last attempt.
          const lost = outcome.left._tag === "Fail" && outcome.left.error._tag === "LeaseLost"
          if (lost) return yield* Effect.logWarning("lease lost; another worker owns the job").pipe(Effect.annotateLogs({ call_id: call.call_id }))
          return yield* retryOrFail(call, job, String(outcome.left), started)
        }
        const result = outcome.right
        if (result._tag === "Left") return yield* fail(call, result.left.code, result.left.message, started)
        // the LLM's failure is stored in the result and on the integration: blanked first
        const assessed = result.right.llm
        const llm = assessed === null || assessed.error === null ? assessed : { ...assessed, error: yield* blankFor(call, assessed.error) }
        const credits = yield* complete(call, llm === assessed ? result.right : { ...result.right, llm })
        yield* Effect.logInfo("analysis completed").pipe(
          Effect.annotateLogs({ ...(yield* logFields(call, started)), credits })
        )
        if (llm !== null) {
          yield* assessors.recordUse(call.client_id, llm.provider, llm.error)
        }
      }).pipe(
        // Stopping (SIGTERM): the job goes back to the queue for the next worker, at once.
        Effect.onInterrupt(() =>
          transactions.run(Effect.zipRight(jobs.release(job.call_id, workerId), calls.requeue(job.call_id))).pipe(
            Effect.zipRight(
              Effect.logInfo("analysis stopped; the job is back in the queue").pipe(Effect.annotateLogs({ call_id: job.call_id }))
            ),
            Effect.ignore
          )
        ),
        Effect.catchTag("LeaseLost", (e) =>
          Effect.logWarning("lease lost; another worker owns the job").pipe(Effect.annotateLogs({ call_id: e.callId }))),
        Effect.withSpan("AnalysisWorker.run", { attributes: { call_id: job.call_id, attempts: job.attempts } })
      )

    /** Claims and runs one job; false when none was ready. */
    const step = jobs.claim(workerId, lease).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.succeed(false), onSome: (job) => Effect.as(run(job), true) }))
    )

    /**
     * The jobs announced, for as long as the service lives: each one wakes every idle loop (they race
     * for it; `claim` gives it to one). Listening fails only for the database's sake: logged, and
     * listened again later; the loops poll meanwhile.
     */
    const announced = yield* PubSub.sliding<void>(1)
    yield* Effect.forkScoped(
      jobs.queued.pipe(
        Stream.runForEach(() => PubSub.publish(announced, undefined)),
        Effect.tapErrorCause((cause) => Effect.logWarning("listening for queued jobs failed; the workers poll meanwhile", cause)),
        Effect.retry(Schedule.spaced(Duration.seconds(10)))
      )
    )

    /**
     * One worker loop: busy while there is work; when there is none, it waits for a job announced or
     * the poll interval, whichever comes first. Subscribed before its first claim, so a job announced
     * between a claim that found none and the wait still wakes it (one announced while it was busy
     * costs one claim more).
     */
    const loop = Effect.scoped(
      Effect.flatMap(PubSub.subscribe(announced), (wakeups) =>
        step.pipe(
          Effect.flatMap((didWork) =>
            didWork ? Effect.void : Effect.race(Queue.take(wakeups), Effect.sleep(Duration.millis(config.workerPollMs)))
          ),
          Effect.catchAllCause((cause) => Effect.zipRight(Effect.logError("worker step failed", cause), Effect.sleep(Duration.seconds(2)))),
          Effect.forever
        ))
    )

    return { workerId, step, loop } as const
  }),
  dependencies: [
    JobsRepo.Default,
    CallsRepo.Default,
    LedgerRepo.Default,
    EventsRepo.Default,
    WebhookOutbox.Default,
    BlobStore.Default,
    Transcribers.Default,
    Assessors.Default,
    Transactions.Default
  ]
}) {}

/** How often a worker process beats its heartbeat row: four times per lease, at least every 10 s. */
export const heartbeatSeconds = (leaseSeconds: number) => Math.max(1, Math.min(10, leaseSeconds / 4))

/**
 * `WORKER_CONCURRENCY` worker loops for the life of the layer, and the process's heartbeat (the
 * admin's `status` counts the processes alive): beaten at once and then every `heartbeatSeconds`,
 * removed when the layer closes. It needs the tenants'
 * `QualificationFrameworks` and `RepChannels`, which the portal implements, and their `SpeechIntegrations` and
 * `LlmAssistants`, which the integrations feature implements (`main.ts` provides them).
 */
export const WorkersLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const worker = yield* AnalysisWorker
    const heartbeats = yield* WorkersRepo
    const beat = heartbeats.beat({
      workerId: worker.workerId,
      host: hostname(),
      pid: process.pid,
      concurrency: config.workerConcurrency,
      leaseSeconds: config.workerLeaseSeconds
    })
    yield* Effect.addFinalizer(() => Effect.ignore(heartbeats.remove(worker.workerId)))
    yield* Effect.forkScoped(
      Effect.zipRight(beat, heartbeats.prune).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("worker heartbeat failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.seconds(heartbeatSeconds(config.workerLeaseSeconds))))
      )
    )
    yield* Effect.logInfo(`analysis workers started: ${config.workerConcurrency}`).pipe(
      Effect.annotateLogs("worker_id", worker.workerId)
    )
    for (let i = 0; i < config.workerConcurrency; i++) yield* Effect.forkScoped(worker.loop)
  })
).pipe(Layer.provide([AnalysisWorker.Default, WorkersRepo.Default]))
