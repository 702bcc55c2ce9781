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
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"
import { renderReport } from "../src/report/Report.js"
import { sample, withTranscript } from "./ReportSamples.js"

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
      const { page, requests } = await open(`full-${width}`, renderReport(withTranscript()), width)
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
    const { page } = await open("full-click", renderReport(withTranscript()), 1280)
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
    const { page, requests } = await open("full-print", renderReport(withTranscript()), 1280)
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
    const { page } = await open("full-shot", renderReport(withTranscript()), 1280)
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
      const { page, requests } = await open(`acoustic-${width}`, renderReport(sample({ diarization: "clustering" })), width)
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
