/**
 * `GET /`: what a browser finds at the service's address — what this is and where to go next: for
 * people, sign up, sign in and the portal; for developers, the reference (`/docs`), the OpenAPI
 * document and the probes. Static, no external resources, its style allowed by its hash
 * (http/SecurityHeaders.ts). `GET /favicon.ico`, the icon every page names (and browsers ask for
 * anyway), cacheable for a day. And what any other path finds: a JSON 404 like every other error
 * of the service, not an empty one.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { inlineStyle } from "./http/SecurityHeaders.js"
import { FAVICON_LINK, FAVICON_PATH } from "./lib/Html.js"
import { VERSIONS_LINE } from "./version.js"

/**
 * The icon: a sound wave's bars on a dark rounded square, as an ICO holding two PNGs (16 and 32
 * pixels), 515 bytes.
 */
const FAVICON = Buffer.from(
  "AAABAAIAEBAAAAEAIACzAAAAJgAAACAgAAABACAAKgEAANkAAACJUE5HDQoaCgAAAA1JSERSAAAAEAAAABAIBgAAAB/z/2EAAAB6SURBVHjaY2BgYGDgF9eK4RfXus4vrvWfSAxSG8OApPk/mTiGgVibheVM/huFtoJpZJcwEKtY2Truf8LSX2AaWS1WA7ApJtuAlWs2gTFRBjgXrQdjZMWHj54CY6IM8Gk6BsYDZwDFXqA4EKkWjaQmJIqTMmWZidLsDABwHZTelL2NtgAAAABJRU5ErkJggolQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAPFJREFUeNpjYEAC/OJaEvziWu384lqX+cW1fvOLa/2nEv4NNRNktgQDNsAvrhXDL671mYqW4sIgO2KwWf6fzjgGOdg/D4ADPoOjAxov/wcItzNAEwdVDZY3CfkfMeM5GIPYeNReZqByagdj++xl/xOW/gJjEBtf7mCghc+cCtbAHQBi4zOTgRY+o5kDiDWYrg5wcAv9//LlazAGsenugHkLV/yHARCbag7AluCwGbx0xXq4A0BsqjkAW4KjqwOwGTLqgJHlgAFPhAOeDQe8IBoyRfHIqo5p1SAZ8CbZgDdKB7xZPrAdkwHvmg2KzulAds8BgilpR3OduiUAAAAASUVORK5CYII=",
  "base64"
)

/** A day in every cache: the icon of a service changes rarely, and nothing of a tenant is in it. */
const FAVICON_CACHE = "public, max-age=86400"

const HOME = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Callsight</title>
${FAVICON_LINK}
${inlineStyle(`
body{margin:0;background:#f1f5f9;color:#0f172a;font:16px/1.55 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:640px;margin:48px auto;background:#fff;border-radius:14px;padding:36px 40px;box-shadow:0 10px 30px rgba(15,23,42,.08)}
h1{margin:0 0 4px;font-size:26px}p.version{margin:0 0 18px;color:#64748b;font-size:13px}
h2{font-size:16px;margin:26px 0 8px}a{color:#1d4ed8}code{background:#f1f5f9;border-radius:4px;padding:1px 5px;font-size:14px}
li{margin:4px 0}
nav{display:flex;flex-wrap:wrap;gap:10px;margin:22px 0 4px}
nav a{display:inline-block;border-radius:8px;padding:9px 16px;text-decoration:none;border:1px solid #cbd5e1;color:#0f172a}
nav a.primary{background:#0f172a;border-color:#0f172a;color:#fff}
`)}</head>
<body><main>
<h1>Callsight</h1>
<p class="version">${VERSIONS_LINE}</p>
<p>Sales-call intelligence: upload recordings of sales calls, poll their analysis, and fetch a
tenant-isolated evidence report or the whole analysis as JSON.</p>
<nav aria-label="Start here">
<a class="primary" href="/signup">Sign up</a>
<a href="/sign-in">Sign in</a>
<a href="/app/">Open the portal</a>
<a href="/docs">API reference</a>
</nav>
<h2>For your team: the portal</h2>
<ul>
<li><a href="/signup">Sign up</a>: create your company's account. We e-mail you a link that signs you in; there is no password.</li>
<li><a href="/sign-in">Sign in</a>: a new sign-in link by e-mail, for an account you have.</li>
<li><a href="/app/">The portal</a>: your calls with their recordings and evidence, the team, coaching, search and chat, value and settings.</li>
</ul>
<h2>For agents and developers: the API</h2>
<ul>
<li><a href="/docs">The reference</a>: every operation, its parameters, answers and errors, and how to get a key.</li>
<li><a href="/openapi.json">The OpenAPI 3.1 document</a>, for generating clients and tools.</li>
<li>Agents: <code>POST /v1/teams/audio</code> with a tenant key in <code>X-API-Key</code>, then poll <code>GET /analysis/{call_id}</code>.</li>
</ul>
<h2>Operations</h2>
<ul>
<li><a href="/health">/health</a> (liveness), <a href="/ready">/ready</a> (readiness),
<a href="/metrics">/metrics</a> (requests per route), <a href="/health/db">/health/db</a> (database)</li>
</ul>
</main></body></html>`

const notFound = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  HttpServerResponse.unsafeJson(
    { _tag: "NotFound", message: `no operation ${request.method} ${request.url.split("?")[0]}: see /docs` },
    { status: 404 }
  ))

export const HomePageLive = HttpApiBuilder.Router.use((router) =>
  Effect.all([
    router.get("/", HttpServerResponse.html(HOME)),
    router.get(
      FAVICON_PATH,
      HttpServerResponse.uint8Array(FAVICON, { contentType: "image/x-icon", headers: { "cache-control": FAVICON_CACHE } })
    ),
    // the router tries every declared route first: this one answers only what none of them serves
    router.all("*", notFound)
  ])
)
