// The same with Effect: CallsightClient.layer needs nothing (it brings FetchHttpClient), and the
// failures are typed: catch them by tag.
//   CALLSIGHT_URL=http://localhost:8080 CALLSIGHT_API_KEY=csk_... npx tsx effect-agent.ts call.wav
import { CallsightClient } from "@callsight/client"
import { Console, Effect } from "effect"

const analyze = Effect.fn("analyze")(function* (file: string) {
  const callsight = yield* CallsightClient
  const accepted = yield* callsight.uploadAudio(file, { externalCallId: "crm-456" })
  const status = yield* callsight.waitForCompletion(accepted.call_id, { timeoutMs: 10 * 60_000 })
  if (status.status === "failed") return yield* Console.log(`${status.call_id} failed: ${status.error?.code}`)
  const call = yield* callsight.getCall(status.call_id)
  yield* Console.log(`${call.call_id} completed: overall_score ${call.overall_score}, talk_ratio ${call.metrics?.talk_ratio}`)
})

await analyze(process.argv[2] ?? "call.wav").pipe(
  Effect.catchTags({
    PaymentRequired: (e) => Console.error(`no credit left: ${e.message}`),
    UnsupportedMediaType: (e) => Console.error(`not a recording: ${e.message}`),
    WaitTimeout: (e) => Console.error(`still ${e.last?.status} after ${e.timeout_ms} ms`)
  }),
  Effect.provide(
    CallsightClient.layer({
      baseUrl: process.env.CALLSIGHT_URL ?? "http://localhost:8080",
      apiKey: process.env.CALLSIGHT_API_KEY
    })
  ),
  Effect.runPromise
)
