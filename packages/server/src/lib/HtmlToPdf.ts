/**
 * HTML printed to PDF by a real browser engine: Chromium (`CHROMIUM_PATH`, Debian's `chromium`)
 * driven by `playwright-core`, loaded on the first print so the server starts without it. One
 * browser is launched on first use and kept, closed with the layer (the server's shutdown); a
 * browser that died is launched again. Each print gets a fresh context with JavaScript off and every
 * request refused, so a page prints only what it holds (the closing audit's report is self-contained).
 * A print has a time limit (`PDF_TIMEOUT_SECONDS`, launching included): it never hangs a request.
 * Without Chromium, or when it fails or is late, the answer is `PdfUnavailable` (a 503 for the API).
 */
import { Data, Duration, Effect } from "effect"
import { existsSync } from "node:fs"
import type { Browser } from "playwright-core"
import { AppConfig } from "../config.js"

export class PdfUnavailable extends Data.TaggedError("PdfUnavailable")<{ readonly message: string }> {}

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

export class HtmlToPdf extends Effect.Service<HtmlToPdf>()("HtmlToPdf", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const path = config.chromiumPath
    const timeout = Duration.seconds(config.pdfTimeoutSeconds)
    let browser: Promise<Browser> | undefined

    const launch = (): Promise<Browser> => {
      const current = browser
      if (current !== undefined) {
        return current.then((b) => (b.isConnected() ? b : ((browser = undefined), launch())))
      }
      const launched = import("playwright-core")
        .then(({ chromium }) => chromium.launch({ executablePath: path, args: ARGS, timeout: Duration.toMillis(timeout) }))
        .catch((error: unknown) => {
          browser = undefined
          throw error
        })
      browser = launched
      return launched
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const open = await browser?.catch(() => undefined)
        browser = undefined
        await open?.close().catch(() => undefined)
      }))

    /** The page's PDF (A4, backgrounds printed, the page's own `@page` margins). */
    const render = Effect.fn("HtmlToPdf.render")(function* (html: string) {
      if (!existsSync(path)) {
        return yield* new PdfUnavailable({
          message: `no PDF engine on this server: Chromium is not at ${path} (install it, e.g. apt-get install chromium, or set CHROMIUM_PATH); the HTML report works without it`
        })
      }
      return yield* Effect.tryPromise({
        try: async () => {
          const b = await launch()
          const context = await b.newContext({ javaScriptEnabled: false, offline: true })
          try {
            const page = await context.newPage()
            await page.route("**/*", (route) => route.abort())
            await page.setContent(html, { waitUntil: "load", timeout: Duration.toMillis(timeout) })
            return new Uint8Array(await page.pdf({ format: "A4", printBackground: true, preferCSSPageSize: true }))
          } finally {
            await context.close().catch(() => undefined)
          }
        },
        catch: (error) =>
          new PdfUnavailable({ message: `the PDF engine failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` })
      }).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => new PdfUnavailable({ message: `the PDF engine did not print within ${config.pdfTimeoutSeconds} s` })
        })
      )
    })

    return { render } as const
  })
}) {}
