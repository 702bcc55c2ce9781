/**
 * No call waits while a worker is idle (issue 39): a job queued is announced at its commit
 * (`pg_notify`, calls/JobsRepo.ts), and an idle worker wakes at once instead of at its next poll
 * (audio/Worker.ts). The worker here polls once a minute, so a call that starts within seconds of
 * its upload was started by the announcement: without it, it would wait most of that minute.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createTenant, settle, upload } from "./utils/AudioRequests.js"
import { wavOf, wavSamples } from "../../../test/utils/Fixtures.js"
import { testServerLayer } from "./utils/TestServer.js"

const POLL_MS = 60_000
/** Far more than a claim takes, even on a loaded machine; far less than the poll. */
const WAKE_BOUND_MS = 20_000

// No test services: the worker sleeps on the real clock.
layer(testServerLayer({ workerConcurrency: 1, workerPollMs: POLL_MS }, { workers: true }), { excludeTestServices: true })(
  "a worker polling once a minute",
  (it) => {
    it.effect("starts a call uploaded while it is idle at once", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const tenant = yield* createTenant(5)
        // 20 s of a two-speaker call: enough to be analysed, quick to analyse
        const call = wavOf(wavSamples("discovery-short.wav").subarray(0, 16_000 * 20))
        const queueWaitMs = (callId: string) =>
          Effect.map(
            sql<{ ms: number }>`SELECT (extract(epoch FROM started_at - created_at) * 1000)::int AS ms FROM calls WHERE call_id = ${callId}`,
            (rows) => rows[0]!.ms
          )

        // The first call: once it is done the worker finds no other and waits for the next one.
        const first = yield* upload(tenant.api_key, call, { name: "first.wav" })
        expect((yield* settle(tenant.api_key, first.body.call_id)).status).toBe("completed")
        expect(yield* queueWaitMs(first.body.call_id)).toBeLessThan(WAKE_BOUND_MS)
        // Idle now for sure (were it not, the next call would only start sooner).
        yield* Effect.sleep("2 seconds")

        const second = yield* upload(tenant.api_key, call, { name: "second.wav" })
        expect((yield* settle(tenant.api_key, second.body.call_id)).status).toBe("completed")
        expect(yield* queueWaitMs(second.body.call_id)).toBeLessThan(WAKE_BOUND_MS)
      }), 150_000)
  }
)
