/**
 * The two pages the e-mailed links open: `/sign-in#token=…` signs the browser in (it posts the
 * token to `POST /v1/client-auth/verify`, which sets the session cookie, then opens `/portal`;
 * without a token it is a form asking for a link by e-mail) and `/verify-email#token=…`
 * confirms a closer's e-mail (`POST /v1/client-portal/closers/verify-email`). The token travels in
 * the fragment, which browsers never send to a server, and the page drops it from the address bar
 * and history before anything else. No external resources; text is set with `textContent`. The
 * inline script and style are allowed by their hashes (http/SecurityHeaders.ts): no style attribute.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { inlineScript, inlineStyle } from "../http/SecurityHeaders.js"

interface PageOptions {
  readonly title: string
  readonly working: string
  readonly endpoint: string
  /** JavaScript expression over `body` (the operation's JSON answer): the line shown on success. */
  readonly success: string
  /** Where the browser goes once the token was taken (after showing the line), if anywhere. */
  readonly then?: string
  /** JavaScript run when the page has no token, instead of saying the link is incomplete. */
  readonly withoutToken?: string
}

// The style of both pages, the e-mail form's included (the CSP allows no style attribute).
const STYLE = inlineStyle(`
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;color:#0f172a;font:16px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{background:#fff;border-radius:14px;padding:36px 40px;max-width:440px;box-shadow:0 10px 30px rgba(15,23,42,.08)}
p.brand{margin:0 0 14px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#64748b}
h1{margin:0 0 10px;font-size:22px}#status{margin:0;color:#334155}#status.ok{color:#166534}#status.error{color:#b91c1c}
#email{width:100%;box-sizing:border-box;padding:9px 10px;margin:14px 0 10px;border:1px solid #cbd5e1;border-radius:8px;font:inherit}
form button{background:#0f172a;color:#fff;border:0;border-radius:8px;padding:9px 16px;font:inherit;cursor:pointer}
`)

// Static text, made when the module loads: its script is allowed by its hash (http/SecurityHeaders.ts).
const page = (o: PageOptions) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${o.title} · Callsight</title>
${STYLE}</head>
<body><main><p class="brand">Callsight</p><h1>${o.title}</h1><p id="status" role="status">${o.working}</p></main>
${inlineScript(`
(function () {
  var status = document.getElementById("status")
  var show = function (text, kind) { status.textContent = text; status.className = kind }
  var token = new URLSearchParams(location.hash.slice(1)).get("token")
  history.replaceState(null, "", location.pathname)
  if (!token) { ${o.withoutToken ?? `show("This link has no token. Open the link from the e-mail again.", "error")`}; return }
  fetch(${JSON.stringify(o.endpoint)}, {
    method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ token: token })
  }).then(function (response) {
    return response.json().then(function (body) {
      if (response.ok) { show(${o.success}, "ok")${o.then === undefined ? "" : `; location.replace(${JSON.stringify(o.then)})`} }
      else show((body && body.message) || "The link could not be used.", "error")
    })
  }).catch(function () { show("The service could not be reached. Try again in a moment.", "error") })
})()
`)}</body></html>`

/** Without a token: a form that asks for a sign-in link by e-mail (`POST /v1/client-auth/login`). */
const ASK_FOR_LINK = `
  document.querySelector("h1").textContent = "Sign in"
  show("Enter your work e-mail: we send you a link that signs you in.", "info")
  var form = document.createElement("form")
  form.innerHTML = '<input id="email" type="email" required autocomplete="email" placeholder="you@company.com">' +
    '<button type="submit">E-mail me a link</button>'
  status.after(form)
  form.addEventListener("submit", function (event) {
    event.preventDefault()
    var email = document.getElementById("email").value
    fetch("/v1/client-auth/login", {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json" }, body: JSON.stringify({ email: email })
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) { form.remove(); show("If " + email + " has an account, a sign-in link is on its way. It is valid for 15 minutes.", "ok") }
        else show((body && body.message) || "The link could not be sent. Check the address.", "error")
      })
    }).catch(function () { show("The service could not be reached. Try again in a moment.", "error") })
  })`

const SIGN_IN = page({
  title: "Signing you in",
  working: "Checking your sign-in link…",
  endpoint: "/v1/client-auth/verify",
  success: `"You are signed in as " + body.user.email + " (" + body.user.company_name + "). Opening your portal…"`,
  then: "/portal",
  withoutToken: ASK_FOR_LINK
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
