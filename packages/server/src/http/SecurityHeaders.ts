/**
 * The security headers of every answer, decided here and nowhere else. `withSecurityHeaders` makes
 * them the server's pre-response handler, so an answer the platform makes from a failure (a 401, a
 * 404, a 500) gets them as well as a handler's own.
 *
 * Every answer: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy:
 * no-referrer` (sign-in links carry their token in the fragment; no page needs to tell another site
 * where the browser came from), and in production (`NODE_ENV=production`) `Strict-Transport-Security`.
 *
 * `Cache-Control: no-store` (unless the handler chose a Cache-Control itself) on every HTML answer
 * but the two public ones (`/` and `/docs`), on every answer to a request that carries a credential
 * (an `X-API-Key`, an `Authorization`, the session cookie), and on every answer to anything but a
 * GET or HEAD: those set the session cookie (sign-in), which the platform's `securitySetCookie` adds
 * after this handler has run, so it cannot be seen here.
 *
 * A `Content-Security-Policy` on every HTML answer, one of three:
 * - the pages of the service (the router's pages: `/`, `/signup`, `/sign-in`, `/verify-email`,
 *   `/portal`, `/portal/integrations`): `default-src 'self'`, scripts and style sheets only by the SHA-256 of
 *   the inline `<script>` and `<style>` elements the pages ship. A page writes them with
 *   `inlineScript` and `inlineStyle` (below) at module load, which record the hash of the exact text;
 *   nothing else runs, in particular no `'unsafe-inline'`, no inline event handler and no `style`
 *   attribute. A page is static (hashes) rather than rendered per request (nonces): the same bytes
 *   every time, and a value interpolated into a page can never become a script. One policy serves
 *   every page: it lists the hashes of all of them (a handful).
 * - the HTML answers of declared operations (the evidence reports, `GET /reports/{call_id}/html` and
 *   `GET /v1/client-portal/calls/{call_id}/report`, and the page of a refused OAuth callback): no
 *   script at all (`default-src 'none'`). Their style stays `'unsafe-inline'`: the report is a
 *   self-contained document (the CLI saves it to a file) whose bars, charts and speaker colours are
 *   `style="width:…;background:…"` attributes with computed values, which no list of hashes can
 *   cover; with no script and no other source allowed, an injected style can restyle the page but
 *   not run or load anything. Images only as `data:` (the report's inline SVG needs none). The
 *   report's own `<meta>` policy (analysis/Report.ts) says the same for a saved copy.
 * - `/docs`, the Scalar API reference that HttpApiScalar.layer serves (HttpApp.ts): its whole
 *   script (3.4 MB, the Scalar bundle of @effect/platform) and its configuration are inline. Their
 *   hashes are taken from the page itself, once: it is made at start-up from the declaration alone
 *   (nothing of a request or of a tenant is in it). Its policy is looser than the pages': Scalar
 *   compiles WebAssembly (`'wasm-unsafe-eval'`, not `'unsafe-eval'`), adds `<style>` elements and
 *   style attributes as it renders (`style-src 'unsafe-inline'`), loads its default fonts from
 *   fonts.scalar.com, and its "Test request" client calls this service (`connect-src 'self'`).
 * Every policy has `object-src 'none'`, `base-uri 'none'`, `frame-ancestors 'none'` and a
 * `form-action` of `'self'` or `'none'`.
 */
import { SESSION_COOKIE } from "@callsight/api-spec"
import { Cookies, HttpApp, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import { AppConfig } from "../config.js"
import { endpointOf } from "./EndpointIndex.js"
import { APP_PATH } from "./WebApp.js"

/** Where HttpApp.ts serves the Scalar reference (`HttpApiScalar.layer({ path: "/docs" })`). */
export const DOCS_PATH = "/docs"

/** The HTML answers anyone may keep in a cache: nothing of a tenant, no token. */
const PUBLIC_PAGES: ReadonlySet<string> = new Set(["/", DOCS_PATH])

export const HSTS = "max-age=31536000; includeSubDomains"

/** A CSP source expression for the SHA-256 of a text, as the browser hashes it (its UTF-8 bytes). */
export const sha256Source = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

const scriptSources = new Set<string>()
const styleSources = new Set<string>()

const element = (tag: "script" | "style", text: string, sources: Set<string>) => {
  // the browser would end the element at the first closing tag: the text hashed would not be the text run
  if (new RegExp(`</${tag}`, "i").test(text)) throw new Error(`an inline <${tag}> may not contain </${tag}`)
  sources.add(sha256Source(text))
  return `<${tag}>${text}</${tag}>`
}

/**
 * An inline `<script>` element of a page, allowed by the pages' CSP through the SHA-256 of its exact
 * text. Call it when the module loads (a constant), never with text made from a request.
 */
export const inlineScript = (source: string): string => element("script", source, scriptSources)

/** An inline `<style>` element of a page, allowed like `inlineScript` by the SHA-256 of its text. */
export const inlineStyle = (css: string): string => element("style", css, styleSources)

const ALWAYS = ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]

/**
 * The web app's policy (`/app`, http/WebApp.ts): its own script and style files (no inline script,
 * no style attribute), requests and audio from this origin only, images from it or `data:`.
 */
export const APP_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  ...ALWAYS
].join("; ")

const list = (sources: ReadonlySet<string>) => (sources.size === 0 ? "'none'" : [...sources].join(" "))

let pages = { scripts: -1, styles: -1, policy: "" }

/** The policy of the service's pages: their own inline scripts and styles, by hash; nothing inline else. */
export const pagePolicy = (): string => {
  if (pages.scripts !== scriptSources.size || pages.styles !== styleSources.size) {
    pages = {
      scripts: scriptSources.size,
      styles: styleSources.size,
      policy: ["default-src 'self'", `script-src ${list(scriptSources)}`, `style-src ${list(styleSources)}`, "form-action 'self'", ...ALWAYS]
        .join("; ")
    }
  }
  return pages.policy
}

/** The policy of a declared operation's HTML (the reports): no script, no other resource, inline style. */
export const DOCUMENT_POLICY = [
  "default-src 'none'",
  // 'unsafe-inline' for style only: see the module's comment (computed style attributes of the report)
  "style-src 'unsafe-inline'",
  "img-src data:",
  "form-action 'none'",
  ...ALWAYS
].join("; ")

/** The policy of the Scalar reference: its own inline scripts by hash, and what Scalar needs to render. */
export const docsPolicy = (scripts: ReadonlyArray<string>) =>
  [
    "default-src 'self'",
    // Scalar compiles a WebAssembly module while it loads the document: without 'wasm-unsafe-eval'
    // (WebAssembly only; JavaScript's eval stays blocked) it renders no operation. Its one `new
    // Function("")` is zod's probe for eval (in a try/catch, falling back when refused): refused, and
    // reported as a violation, harmlessly.
    `script-src ${scripts.length === 0 ? "'none'" : scripts.join(" ")} 'wasm-unsafe-eval'`,
    // Scalar injects <style> elements and style attributes as it renders: it cannot work without it
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data: https://fonts.scalar.com",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "form-action 'self'",
    ...ALWAYS
  ].join("; ")

/**
 * The inline scripts of an HTML text that the browser runs (no `src`, a JavaScript type or none):
 * their exact text. The JSON data block of the Scalar page (`type="application/json"`) is not run.
 */
export const inlineScriptsOf = (html: string): ReadonlyArray<string> => {
  const scripts: Array<string> = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1]!
    if (/\bsrc\s*=/i.test(attributes)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase()
    if (type !== undefined && type !== "module" && !/^(text|application)\/(x-)?(java|ecma)script$/.test(type)) continue
    scripts.push(match[2]!)
  }
  return scripts
}

/** The docs page is made once (HttpApiScalar answers the same body every time): its policy, per body. */
const docsPolicies = new WeakMap<Uint8Array, string>()

const docsPolicyOf = (body: Uint8Array) => {
  let policy = docsPolicies.get(body)
  if (policy === undefined) {
    policy = docsPolicy(inlineScriptsOf(new TextDecoder().decode(body)).map(sha256Source))
    docsPolicies.set(body, policy)
  }
  return policy
}

const contentTypeOf = (response: HttpServerResponse.HttpServerResponse) =>
  (response.headers["content-type"] ?? ("contentType" in response.body ? response.body.contentType : undefined) ?? "").toLowerCase()

const READS: ReadonlySet<string> = new Set(["GET", "HEAD"])

const carriesCredential = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["x-api-key"] !== undefined ||
  request.headers["authorization"] !== undefined ||
  request.cookies[SESSION_COOKIE] !== undefined

/** The headers of an answer to a request (the request as routed, after the `/reporting` alias). */
export const headersFor = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  production: boolean
): Record<string, string> => {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer"
  }
  if (production) headers["strict-transport-security"] = HSTS
  const path = request.url.split("?")[0]!
  const html = contentTypeOf(response).startsWith("text/html")
  if (html) {
    headers["content-security-policy"] = path === APP_PATH || path.startsWith(`${APP_PATH}/`)
      ? APP_POLICY
      : path === DOCS_PATH
      ? (response.body._tag === "Uint8Array" ? docsPolicyOf(response.body.body) : docsPolicy([]))
      : endpointOf(request) !== undefined
      ? DOCUMENT_POLICY
      : pagePolicy()
  }
  const tenantSpecific = (html && !PUBLIC_PAGES.has(path)) || carriesCredential(request) || !READS.has(request.method) ||
    !Cookies.isEmpty(response.cookies) || response.headers["set-cookie"] !== undefined
  if (tenantSpecific && response.headers["cache-control"] === undefined) headers["cache-control"] = "no-store"
  return headers
}

/**
 * `response` with `headers` set, one `setHeader` each: the same answer as `setHeaders`, which copies
 * the headers through an object spread that V8 runs on its slow path for the platform's `Headers`
 * objects (their prototype is a null-prototype object): ~6 µs an answer against ~0.5 µs for four
 * `setHeader`s (Node 20), on every request.
 */
const withHeaders = (response: HttpServerResponse.HttpServerResponse, headers: Record<string, string>) => {
  let out = response
  for (const name in headers) out = HttpServerResponse.setHeader(out, name, headers[name]!)
  return out
}

/**
 * Every answer of `serve`, a handler's or one made from a failure, leaves with `headersFor`: the
 * pre-response handler of the server itself, which every request's fiber starts with (set once
 * here, not per request); a handler's own pre-response handler (a 401's challenge, Security.ts)
 * runs after it.
 */
export const withSecurityHeaders = <A, E, R>(serve: Layer.Layer<A, E, R>): Layer.Layer<A, E, R | AppConfig> =>
  Layer.unwrapEffect(Effect.map(AppConfig, (config) => {
    const handler: HttpApp.PreResponseHandler = (request, response) =>
      Effect.succeed(withHeaders(response, headersFor(request, response, config.production)))
    return Layer.locally(serve, HttpApp.currentPreResponseHandlers, Option.some(handler))
  }))
