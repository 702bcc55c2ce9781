/**
 * An analysis without a transcript says so near its scorecard: the dimensions it could not judge
 * (read off the scorecard's reasons), what the scores rest on, and how to configure a
 * speech-to-text provider in the words the server passes (`speech_to_text_setup`).
 */
import { describe, expect, it } from "@effect/vitest"
import { renderReport } from "../src/report/Report.js"
import { TRANSCRIPT_DIMENSIONS } from "../src/scoring/Dimensions.js"
import { sample, withTranscript } from "./ReportSamples.js"

const SETUP = "Save a speech-to-text key in the portal (PUT /v1/client-portal/integrations/llm), or set TRANSCRIBER with its key."

/** The notice's section. */
const notice = (html: string) => {
  const start = html.indexOf(`id="no-transcript"`)
  expect(start).toBeGreaterThan(0)
  return html.slice(start, html.indexOf("</section>", start))
}

describe("the report of an analysis without a transcript", () => {
  it("the dimensions that need a transcript are the ones an acoustic-only scorecard leaves not assessed", () => {
    const off = sample().scorecard.dimensions.filter((d) => !d.assessed).map((d) => d.dimension)
    expect(off).toEqual(TRANSCRIPT_DIMENSIONS)
    expect(off).toEqual(["discovery", "objection_handling", "value", "next_steps"])
  })

  it("says before the scorecard which dimensions it could not judge, what the scores rest on, and how to add a provider", () => {
    const html = renderReport(sample({ speech_to_text_setup: SETUP }))
    const at = html.indexOf(`id="no-transcript"`)
    expect(at).toBeGreaterThan(html.indexOf(`id="overall"`))
    expect(at).toBeLessThan(html.indexOf(`id="scorecard"`))
    const text = notice(html)
    expect(text).toContain("No speech-to-text provider")
    expect(text).toContain("<b>Discovery, Objection handling, Value and Next steps</b> could not be judged (they need the words)")
    expect(text).toContain("The scores below rest on Listening and Conversation flow alone.")
    expect(text).toContain(`<b>To add one:</b> ${SETUP}`)
  })

  it("lists only the dimensions whose reason is a missing transcript", () => {
    const input = sample()
    const dimensions = input.scorecard.dimensions.map((d) =>
      d.dimension === "value" ? { ...d, reason: "does not apply to a support call" } : d
    )
    const text = notice(renderReport({ ...input, scorecard: { ...input.scorecard, dimensions } }))
    expect(text).toContain("<b>Discovery, Objection handling and Next steps</b> could not be judged")
    expect(text).not.toContain("Value")
  })

  it("without the server's words it still says what is missing; the words given are escaped", () => {
    expect(notice(renderReport(sample()))).toContain("configure a speech-to-text provider (Deepgram, AssemblyAI or OpenAI) for this tenant")
    const hostile = notice(renderReport(sample({ speech_to_text_setup: "<script>x</script>" })))
    expect(hostile).toContain("&lt;script&gt;x&lt;/script&gt;")
    expect(hostile).not.toContain("<script>")
  })

  it("with a transcript there is no such notice", () => {
    const html = renderReport(withTranscript({ speech_to_text_setup: SETUP }))
    expect(html).not.toContain(`id="no-transcript"`)
    expect(html).not.toContain(SETUP)
  })
})
