/**
 * The report as a browser shows it: headless Chromium (Debian's `/usr/bin/chromium`, driven by
 * `playwright-core`, which downloads no browser) opens a full report (with a transcript and every
 * section) and an acoustic-only one from files, with every network request recorded and refused,
 * and checks the layout: no horizontal overflow at 1280 and 800 px, every section visible, every
 * internal link landing, an evidence link scrolling to its transcript segment, the print layout,
 * and a full-page screenshot that is a real, non-blank PNG.
 *
 * Without `/usr/bin/chromium` the tests are skipped, unless `CI` is set (CI installs it): then they
 * fail. Set `REPORT_SCREENSHOTS=<dir>` to keep the screenshots there to look at.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"
import { METHOD_VERSION } from "../../src/analysis/Method.js"
import { renderReport, type ReportInput } from "../../src/analysis/Report.js"
import { findMoments, scoreCall } from "../../src/analysis/Scorecard.js"
import type { EvidenceItem, Metrics, SpeakerSummary, Turn } from "../../src/analysis/Types.js"

// The functions given to `page.evaluate` run in the page, against the DOM, which the types of this
// Node project do not include: these names are the page's.
declare const document: any, window: any, location: any, Image: any, getComputedStyle: any

const CHROMIUM = "/usr/bin/chromium"
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]
const haveChromium = existsSync(CHROMIUM)
const CI = Boolean(process.env.CI)
if (!haveChromium && !CI) {
  console.warn(`ReportScreenshot: ${CHROMIUM} not found, skipping the browser checks (apt-get install chromium; with CI set they fail)`)
}

// ---------------------------------------------------------------------------------------------
// Sample calls: the discovery-short fixture, its truth turns as speaker turns and transcript

const truth = JSON.parse(
  readFileSync(new URL("../../../../test/fixtures/discovery-short.truth.json", import.meta.url), "utf8")
) as { duration: number; turns: Array<{ speaker: string; start: number; end: number; text: string }> }

const label = (speaker: string) => (speaker === "rep" ? "S1" : "S2")

const acousticOnly = (): ReportInput => {
  const turns: Array<Turn> = truth.turns.map((t) => ({
    speaker: label(t.speaker),
    role: t.speaker === "rep" ? "rep" : "buyer",
    start: t.start,
    end: t.end
  }))
  const duration = truth.duration
  const m = findMoments({ speaker_turns: turns, speakers: [], duration_s: duration })
  const talk = m.repTalk_s + m.buyerTalk_s
  const speakers: Array<SpeakerSummary> = [
    { speaker: "S1", role: "rep", role_confidence: 0.86, talk_time_s: m.repTalk_s, talk_share: m.repTalk_s / talk },
    { speaker: "S2", role: "buyer", role_confidence: 0.86, talk_time_s: m.buyerTalk_s, talk_share: m.buyerTalk_s / talk }
  ]
  const metrics: Metrics = {
    talk_ratio: m.repTalk_s / talk,
    longest_monologue_s: m.monologues[0]!.end - m.monologues[0]!.start,
    longest_customer_story_s: m.stories[0]!.end - m.stories[0]!.start,
    interactivity: m.switches / (duration / 60),
    patience_s: 0.8,
    interruptions: m.interruptions.length,
    silence_ratio: 1 - talk / duration,
    question_count: null,
    question_rate: null,
    words_per_minute: null,
    filler_rate: null
  }
  const scored = scoreCall({ metrics, speaker_turns: turns, speakers, duration_s: duration })
  return {
    call_id: "call_01JQ8ZK4V3M2N7P5R6S8T9W0XY",
    external_call_id: "ACME-0412",
    created_at: "2025-04-12T14:03:27Z",
    duration_s: duration,
    channels: 1,
    method_version: METHOD_VERSION,
    speakers,
    speaker_turns: turns,
    metrics,
    scorecard: scored.scorecard,
    evidence: scored.evidence,
    transcript: null,
    diarization: "clustering"
  }
}

/** With a transcript, and a content analysis written by hand (the content engine is not used here). */
const full = (): ReportInput => {
  const base = acousticOnly()
  const transcript = truth.turns.map((t) => ({ speaker: label(t.speaker), start: t.start, end: t.end, text: t.text }))
  const said = (start: number, quote: string, dimension: string, effect: number): EvidenceItem => {
    const seg = transcript.find((s) => s.start === start)!
    return { dimension, start, end: seg.end, speaker: seg.speaker, quote, effect }
  }
  const scores: Record<string, [number, string]> = {
    discovery: [70, "4 rep questions, 2 open; a pain and a number uncovered"],
    next_steps: [75, "a dated next step with an owner"]
  }
  const dimensions = base.scorecard.dimensions.map((d) =>
    d.dimension in scores ? { ...d, score: scores[d.dimension]![0], assessed: true, reason: scores[d.dimension]![1] } : d
  )
  const assessed = dimensions.filter((d) => d.assessed && d.score !== null)
  const overall = Math.round(assessed.reduce((s, d) => s + d.score! * d.weight, 0) / assessed.reduce((s, d) => s + d.weight, 0))
  return {
    ...base,
    metrics: { ...base.metrics, question_count: 4, question_rate: 5.3, words_per_minute: { rep: 152, buyer: 141 }, filler_rate: 0.8 },
    scorecard: { overall, dimensions },
    evidence: [
      ...base.evidence,
      said(11.495, "What prompted you to look at call coaching tools right now?", "discovery", 10),
      said(30.306, "How is that showing up in the pipeline numbers?", "discovery", 10),
      said(61.138, "Could we book thirty minutes next Tuesday with you and your revenue operations lead", "next_steps", 25)
    ],
    transcript,
    qualification: {
      framework: "MEDDPICC",
      elements: [
        { element: "metrics", score: 2, evidence: said(35.311, "We are about four hundred thousand dollars behind plan for the half.", "qualification", 2) },
        { element: "economic_buyer", score: 2, evidence: said(35.311, "My boss, the VP of sales, signs off on anything over fifty thousand", "qualification", 2) },
        { element: "decision_criteria", score: 0, evidence: null },
        { element: "decision_process", score: 1, evidence: said(52.332, "Me, our revenue operations lead, and then procurement and legal", "qualification", 1) },
        { element: "paper_process", score: 2, evidence: said(52.332, "procurement and legal review the contract", "qualification", 2) },
        { element: "identify_pain", score: 2, evidence: said(16.38, "our win rate dropped from thirty one percent to twenty four percent last quarter", "qualification", 2) },
        { element: "champion", score: 0, evidence: null },
        { element: "competition", score: 1, evidence: said(52.332, "We are also looking at one other vendor.", "qualification", 1) }
      ]
    },
    objections: [
      { kind: "price", at: 35.311, quote: "We are about four hundred thousand dollars behind plan", response: "question_back", response_pause_s: 1.4 },
      { kind: "competitor", at: 58.9, quote: "We are also looking at one other vendor.", response: "long_pitch", response_pause_s: null }
    ],
    next_steps: [
      { at: 61.138, quote: "Could we book thirty minutes next Tuesday?", owner: "S1", due: "Tuesday 14:00" },
      { at: 72.5, quote: "Send me the invite.", owner: null, due: null }
    ],
    transcription: { provider: "deepgram", model: "nova-3", diarization_agreement: 0.934 }
  }
}

// ---------------------------------------------------------------------------------------------
// The browser

let browser: Browser | undefined
let dir = ""

/** Open a report from a file, every request but the file itself recorded and refused. */
const open = async (name: string, html: string, width: number) => {
  const file = join(dir, `${name}.html`)
  writeFileSync(file, html)
  const url = pathToFileURL(file).href
  const page = await browser!.newPage({ viewport: { width, height: 900 } })
  const requests: Array<string> = []
  page.on("request", (r) => {
    if (r.url() !== url) requests.push(r.url())
  })
  await page.route("**/*", (route) => (route.request().url() === url ? route.continue() : route.abort()))
  await page.goto(url, { waitUntil: "load" })
  return { page, requests }
}

const noOverflow = (page: Page) =>
  page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }))

/** Selectors whose element is missing or has no size. */
const invisible = (page: Page, selectors: ReadonlyArray<string>) =>
  page.evaluate((sel) =>
    sel.filter((s) => {
      const el = document.querySelector(s)
      if (el === null) return true
      const r = el.getBoundingClientRect()
      return !(r.width > 0 && r.height > 0) || getComputedStyle(el).visibility === "hidden"
    }), selectors)

/** Internal links whose target is not in the page. */
const danglingLinks = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("a[href^='#']")]
      .map((a) => a.getAttribute("href")!.slice(1))
      .filter((id) => document.getElementById(decodeURIComponent(id)) === null)
  )

/** Width, height, distinct colours and dark (text) pixels of a PNG, decoded by the browser. */
const pngStats = async (png: Buffer) => {
  const page = await browser!.newPage()
  try {
    return await page.evaluate(async (src) => {
      const img = new Image()
      img.src = src
      await img.decode()
      const canvas = document.createElement("canvas")
      canvas.width = img.naturalWidth
      canvas.height = img.naturalHeight
      const g = canvas.getContext("2d")!
      g.drawImage(img, 0, 0)
      const data = g.getImageData(0, 0, canvas.width, canvas.height).data
      const colours = new Set<number>()
      let dark = 0
      let sampled = 0
      for (let i = 0; i < data.length; i += 4 * 37) {
        colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!)
        if (data[i]! + data[i + 1]! + data[i + 2]! < 240) dark++
        sampled++
      }
      return { width: canvas.width, height: canvas.height, colours: colours.size, darkShare: dark / sampled }
    }, `data:image/png;base64,${png.toString("base64")}`)
  } finally {
    await page.close()
  }
}

/** The width and height in a PNG's IHDR chunk, after checking the signature. */
const pngSize = (png: Buffer) => {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true)
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR")
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

const keep = (png: Buffer, name: string) => {
  const out = process.env.REPORT_SCREENSHOTS
  const file = join(dir, name)
  writeFileSync(file, png)
  if (out) {
    mkdirSync(out, { recursive: true })
    copyFileSync(file, join(out, name))
  }
}

describe.skipIf(!haveChromium && !CI)("the report in headless Chromium", () => {
  beforeAll(async () => {
    if (!haveChromium) throw new Error(`CI is set but ${CHROMIUM} is missing: install it (apt-get install chromium)`)
    dir = mkdtempSync(join(tmpdir(), "callsight-report-"))
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true })
  })
  afterAll(async () => {
    await browser?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it("lays out the full report: no overflow, every section, every link, no request", async () => {
    for (const width of [1280, 800]) {
      const { page, requests } = await open(`full-${width}`, renderReport(full()), width)
      const { inner, scroll } = await noOverflow(page)
      expect(scroll, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(inner)
      expect(
        await invisible(page, ["#overall", "#talk-ratio", "#scorecard", "#timeline svg.timeline", "#metrics", "#qualification", "#objections", "#next-steps", "#evidence", "#transcript", "#transcript li.seg", "#method"])
      ).toEqual([])
      expect(await danglingLinks(page)).toEqual([])
      expect(await page.locator("a[href^='#t-']").count()).toBeGreaterThan(10)
      // nothing sticks out of its card (long quotes and tables wrap)
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll(".card")].flatMap((card) => {
          const box = card.getBoundingClientRect()
          return [...card.querySelectorAll("*")]
            .filter((el) => el.getBoundingClientRect().right > box.right + 1 && el.getClientRects().length > 0)
            .map((el) => `${card.id} ${el.tagName.toLowerCase()}.${el.getAttribute("class") ?? ""}`)
        })
      )
      expect(wide, `elements wider than their card at ${width} px`).toEqual([])
      expect(requests).toEqual([])
      await page.close()
    }
  })

  it("scrolls from an evidence link to its transcript segment", async () => {
    const { page } = await open("full-click", renderReport(full()), 1280)
    const link = page.locator("#evidence a[href^='#t-']").first()
    const target = (await link.getAttribute("href"))!.slice(1)
    await link.click()
    await page.waitForFunction((id) => location.hash === `#${id}`, target)
    const top = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, target)
    expect(Math.abs(top)).toBeLessThan(40)
    expect(await page.evaluate((id) => document.getElementById(id)!.matches("#transcript li.seg:target"), target)).toBe(true)
    // and from a quote in the scorecard
    const quote = page.locator("#scorecard .quotes a.ts").first()
    const id = (await quote.getAttribute("href"))!.slice(1)
    await quote.click()
    await page.waitForFunction((x) => location.hash === `#${x}`, id)
    expect(Math.abs(await page.evaluate((x) => document.getElementById(x)!.getBoundingClientRect().top, id))).toBeLessThan(40)
    await page.close()
  })

  it("prints: the print layout keeps every section, and a PDF comes out", async () => {
    const { page, requests } = await open("full-print", renderReport(full()), 1280)
    await page.emulateMedia({ media: "print" })
    expect(await invisible(page, ["#scorecard", "#timeline svg.timeline", "#qualification", "#objections", "#next-steps", "#transcript", "#method"]))
      .toEqual([])
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(255, 255, 255)")
    const { inner, scroll } = await noOverflow(page)
    expect(scroll).toBeLessThanOrEqual(inner)
    keep(await page.screenshot({ fullPage: true }), "report-print.png")
    const pdf = await page.pdf({ format: "A4", printBackground: true })
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-")
    expect(pdf.length).toBeGreaterThan(20_000)
    expect(requests).toEqual([])
    await page.close()
  })

  it("takes a full-page screenshot that is a real, non-blank PNG", async () => {
    const { page } = await open("full-shot", renderReport(full()), 1280)
    const png = await page.screenshot({ fullPage: true, type: "png" })
    keep(png, "report-full.png")
    const size = pngSize(png)
    expect(size.width).toBe(1280)
    expect(size.height).toBeGreaterThan(1500)
    const stats = await pngStats(png)
    expect(stats).toMatchObject({ width: size.width, height: size.height })
    expect(stats.colours).toBeGreaterThan(30)
    expect(stats.darkShare).toBeGreaterThan(0.005)
    keep(await page.setViewportSize({ width: 800, height: 900 }).then(() => page.screenshot({ fullPage: true })), "report-full-800.png")
    await page.close()
  })

  it("lays out the acoustic-only report as before", async () => {
    for (const width of [1280, 800]) {
      const { page, requests } = await open(`acoustic-${width}`, renderReport(acousticOnly()), width)
      const { inner, scroll } = await noOverflow(page)
      expect(scroll, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(inner)
      expect(await invisible(page, ["#overall", "#scorecard", "#timeline svg.timeline", "#metrics", "#evidence", "#needs-transcript", "#method"])).toEqual([])
      expect(await page.locator("#transcript, #qualification, #objections, #next-steps").count()).toBe(0)
      expect(await danglingLinks(page)).toEqual([])
      expect(requests).toEqual([])
      const png = await page.screenshot({ fullPage: true })
      keep(png, `report-acoustic-${width}.png`)
      expect(pngSize(png).height).toBeGreaterThan(1200)
      await page.close()
    }
  })
})
