/**
 * `GET /`: what a browser finds at the service's address — what this is and where to go next (the
 * reference, the OpenAPI document, the probes). Static, no external resources, its style allowed by
 * its hash (http/SecurityHeaders.ts). And what any other path finds: a JSON 404 like every other
 * error of the service, not an empty one.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { inlineStyle } from "./http/SecurityHeaders.js"
import { VERSION } from "./version.js"

const HOME = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Callsight</title>
${inlineStyle(`
body{margin:0;background:#f1f5f9;color:#0f172a;font:16px/1.55 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:640px;margin:48px auto;background:#fff;border-radius:14px;padding:36px 40px;box-shadow:0 10px 30px rgba(15,23,42,.08)}
h1{margin:0 0 4px;font-size:26px}p.version{margin:0 0 18px;color:#64748b;font-size:13px}
h2{font-size:16px;margin:26px 0 8px}a{color:#1d4ed8}code{background:#f1f5f9;border-radius:4px;padding:1px 5px;font-size:14px}
li{margin:4px 0}
`)}</head>
<body><main>
<h1>Callsight</h1>
<p class="version">version ${VERSION}</p>
<p>Sales-call intelligence: upload recordings of sales calls, poll their analysis, and fetch a
tenant-isolated evidence report or the whole analysis as JSON.</p>
<h2>The API</h2>
<ul>
<li><a href="/docs">The reference</a>: every operation, its parameters, answers and errors, and how to get a key.</li>
<li><a href="/openapi.json">The OpenAPI 3.1 document</a>, for generating clients and tools.</li>
<li>Agents: <code>POST /v1/teams/audio</code> with a tenant key, then poll <code>GET /analysis/{call_id}</code>.</li>
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
    // the router tries every declared route first: this one answers only what none of them serves
    router.all("*", notFound)
  ])
)
