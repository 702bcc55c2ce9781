/**
 * The two pages the e-mailed links open: `/sign-in#token=…` signs the browser in (it posts the
 * token to `POST /v1/client-auth/verify`, which sets the session cookie) and `/verify-email#token=…`
 * confirms a closer's e-mail (`POST /v1/client-portal/closers/verify-email`). The token travels in
 * the fragment, which browsers never send to a server, and the page drops it from the address bar
 * and history before anything else. No external resources; text is set with `textContent`.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

interface PageOptions {
  readonly title: string
  readonly working: string
  readonly endpoint: string
  /** JavaScript expression over `body` (the operation's JSON answer): the line shown on success. */
  readonly success: string
}

const page = (o: PageOptions) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${o.title} · Callsight</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;color:#0f172a;font:16px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{background:#fff;border-radius:14px;padding:36px 40px;max-width:440px;box-shadow:0 10px 30px rgba(15,23,42,.08)}
p.brand{margin:0 0 14px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#64748b}
h1{margin:0 0 10px;font-size:22px}#status{margin:0;color:#334155}#status.ok{color:#166534}#status.error{color:#b91c1c}
</style></head>
<body><main><p class="brand">Callsight</p><h1>${o.title}</h1><p id="status" role="status">${o.working}</p></main>
<script>
(function () {
  var status = document.getElementById("status")
  var show = function (text, kind) { status.textContent = text; status.className = kind }
  var token = new URLSearchParams(location.hash.slice(1)).get("token")
  history.replaceState(null, "", location.pathname)
  if (!token) { show("This link has no token. Open the link from the e-mail again.", "error"); return }
  fetch(${JSON.stringify(o.endpoint)}, {
    method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ token: token })
  }).then(function (response) {
    return response.json().then(function (body) {
      if (response.ok) show(${o.success}, "ok")
      else show((body && body.message) || "The link could not be used.", "error")
    })
  }).catch(function () { show("The service could not be reached. Try again in a moment.", "error") })
})()
</script></body></html>`

const SIGN_IN = page({
  title: "Signing you in",
  working: "Checking your sign-in link…",
  endpoint: "/v1/client-auth/verify",
  success: `"You are signed in as " + body.user.email + " (" + body.user.company_name + "). You can close this tab."`
})

const VERIFY_EMAIL = page({
  title: "Confirming your e-mail",
  working: "Checking your link…",
  endpoint: "/v1/client-portal/closers/verify-email",
  success: `"Thank you: " + body.email + " is confirmed."`
})

export const PagesLive = HttpApiBuilder.Router.use((router) =>
  Effect.all([
    router.get("/sign-in", HttpServerResponse.html(SIGN_IN)),
    router.get("/verify-email", HttpServerResponse.html(VERIFY_EMAIL))
  ])
)
