// What the failures look like: every rejection of the Promise client is a CallsightError with a
// tag, the HTTP status (undefined without an answer) and a message that says what happened.
//   CALLSIGHT_URL=http://localhost:8080 CALLSIGHT_API_KEY=csk_... npx tsx errors.ts
import { CallsightError, createCallsightClient } from "@callsight/client"

const baseUrl = process.env.CALLSIGHT_URL ?? "http://localhost:8080"
const callsight = createCallsightClient({ baseUrl, apiKey: process.env.CALLSIGHT_API_KEY })

const attempt = async (what: string, operation: () => Promise<unknown>) => {
  try {
    await operation()
    console.log(`${what}: ok`)
  } catch (e) {
    if (!(e instanceof CallsightError)) throw e
    console.log(`${what}: ${e.tag} ${e.status ?? "-"}: ${e.message}`)
  }
}

await attempt("an unknown call", () => callsight.getCall("call_00000000000000000000"))
await attempt("a wrong key", () => createCallsightClient({ baseUrl, apiKey: "csk_wrong" }).listCalls())
await attempt("no key", () => createCallsightClient({ baseUrl }).listCalls())
await attempt("a file that is not there", () => callsight.uploadAudio("no-such-file.wav"))
await attempt("a file that is not audio", () =>
  callsight.uploadAudio(new TextEncoder().encode("meeting notes, not a recording"), { filename: "notes.mp3" }))
await attempt("a host that does not exist", () =>
  createCallsightClient({ baseUrl: "http://callsight.invalid", maxRetries: 0 }).health())
