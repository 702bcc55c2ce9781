/**
 * The web app (`packages/web`, issue 37) at `/app`: the files its build wrote (`dist/`: index.html
 * and hashed assets), read once at start-up and kept in memory with their gzip (a handful of
 * files), each answered with its type; a hashed asset is cached for a year (`immutable`: its name
 * changes with its bytes), the page itself never (`no-cache`: a new build is seen at once). Any
 * other path under `/app/` is the app's own route (`/app/calls/…`): it gets index.html, and the app
 * draws the screen. Without a build (a checkout where `npm run build` has not run), `/app` says so
 * (503). `/portal`, the portal's first address (a server-rendered page before the app), leads
 * here. The app's CSP is `http/SecurityHeaders.ts`'s (`APP_POLICY`): its own scripts and styles
 * only, requests to this origin only.
 *
 * The files are found through the package (`@callsight/web`'s `dist/`), wherever the server runs
 * from (its sources or its build).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, extname, join, relative } from "node:path"
import { gzipSync } from "node:zlib"

/** Where the app is served. */
export const APP_PATH = "/app"

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2"
}

interface StaticFile {
  readonly type: string
  readonly body: Uint8Array
  readonly gzip: Uint8Array
  readonly cache: string
}

/** The build's directory, if there is one. */
const distDirectory = (): string | undefined => {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve("@callsight/web/package.json")), "dist")
    return existsSync(join(dir, "index.html")) ? dir : undefined
  } catch {
    return undefined
  }
}

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

/** Every file of the build by its URL path (`/app/assets/index-1a2b.js`). */
export const loadWebApp = (dir = distDirectory()): ReadonlyMap<string, StaticFile> => {
  const files = new Map<string, StaticFile>()
  if (dir === undefined) return files
  for (const path of walk(dir)) {
    const body = new Uint8Array(readFileSync(path))
    const url = `${APP_PATH}/${relative(dir, path).split("\\").join("/")}`
    files.set(url, {
      type: TYPES[extname(path)] ?? "application/octet-stream",
      body,
      gzip: new Uint8Array(gzipSync(body, { level: 9 })),
      cache: url.startsWith(`${APP_PATH}/assets/`) ? "public, max-age=31536000, immutable" : "no-cache"
    })
  }
  return files
}

const answer = (file: StaticFile, acceptsGzip: boolean) =>
  HttpServerResponse.uint8Array(acceptsGzip ? file.gzip : file.body, {
    contentType: file.type,
    headers: { "cache-control": file.cache, vary: "accept-encoding", ...(acceptsGzip ? { "content-encoding": "gzip" } : {}) }
  })

export const WebAppLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const files = loadWebApp()
    const page = files.get(`${APP_PATH}/index.html`)
    const serve = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      if (page === undefined) {
        return HttpServerResponse.text("The web app is not built: run `npm run build`.", { status: 503 })
      }
      const path = request.url.split("?")[0]!
      // the router takes `/app` for `/app/` (trailing slashes ignored): the app's relative URLs need the slash
      if (path === APP_PATH) return HttpServerResponse.redirect(`${APP_PATH}/`, { status: 302 })
      const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
      const file = files.get(path)
      if (file !== undefined) return answer(file, gzip)
      // an asset that is not there is a 404 (a stale page asking for an old build's file), not the page
      if (path.startsWith(`${APP_PATH}/assets/`)) return HttpServerResponse.text("no such file", { status: 404 })
      return answer(page, gzip)
    })
    // the portal's old address: the app is the portal now
    yield* router.get("/portal", HttpServerResponse.redirect(`${APP_PATH}/`, { status: 302 }))
    // `/app` and `/app/` (one route: the router ignores a trailing slash), and every path under it
    yield* router.get(APP_PATH, serve)
    yield* router.get(`${APP_PATH}/*`, serve)
  })
)
