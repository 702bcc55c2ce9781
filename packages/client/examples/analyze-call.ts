// Upload a recording, wait for its analysis, read the score and save the HTML report.
//   CALLSIGHT_URL=http://localhost:8080 CALLSIGHT_API_KEY=csk_... npx tsx analyze-call.ts call.wav
import { CallsightError, createCallsightClient } from "@callsight/client"
import { writeFile } from "node:fs/promises"

const file = process.argv[2] ?? "call.wav"
const callsight = createCallsightClient({
  baseUrl: process.env.CALLSIGHT_URL ?? "http://localhost:8080",
  apiKey: process.env.CALLSIGHT_API_KEY // a tenant key, csk_...
})

try {
  // A path is streamed from disk; a Blob, a File or bytes work too.
  const accepted = await callsight.uploadAudio(file, { externalCallId: "crm-123" })
  console.log(`uploaded ${file}: ${accepted.call_id} (${accepted.status})`)

  // Polls GET /analysis/{call_id} with back-off until the analysis is completed or failed.
  const status = await callsight.waitForCompletion(accepted.call_id, {
    timeoutMs: 10 * 60_000,
    onStatus: (s) => console.error(`  ${s.stage} ${Math.round(s.progress * 100)}%`)
  })
  if (status.status === "failed") {
    // e.g. "too_short" or "undecodable_audio"; a failed analysis uses no credit
    console.log(`${status.call_id} failed: ${status.error?.code}`)
    process.exit(1)
  }

  const call = await callsight.getCall(status.call_id)
  console.log(`${call.call_id} completed: overall_score ${call.overall_score}`)
  for (const d of call.scorecard?.dimensions ?? []) {
    console.log(`  ${d.dimension}: ${d.assessed ? d.score : "not assessed"}`)
  }

  const html = await callsight.getReportHtml(call.call_id)
  await writeFile(`${call.call_id}.html`, html)
  console.log(`report: ${call.call_id}.html`)
} catch (e) {
  if (!(e instanceof CallsightError)) throw e
  console.error(`${e.tag}: ${e.message}`) // e.g. PaymentRequired: no credit left ...
  process.exit(1)
}
