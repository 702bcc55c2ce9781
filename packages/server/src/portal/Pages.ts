/**
 * The two pages the e-mailed links open: `/sign-in#token=…` signs the browser in (it posts the
 * token to `POST /v1/client-auth/verify`, which sets the session cookie, then opens the app (`/app`,
 * or the app's page the person was on when asked to sign in: kept in `localStorage` while the link travels);
 * without a token it is a form asking for a link by e-mail) and `/verify-email#token=…`
 * confirms a closer's e-mail (`POST /v1/client-portal/closers/verify-email`). The token travels in
 * the fragment, which browsers never send to a server, and the page drops it from the address bar
 * and history before anything else. And `/signup`, the form of `POST /v1/client-auth/signup`: the
 * company's account and its owner, then a sign-in link by e-mail, which the page says. No external
 * resources; text is set with `textContent`. The inline script and style are allowed by their
 * hashes (http/SecurityHeaders.ts): no style attribute.
 */
import { SIGN_IN_PATH } from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { inlineScript, inlineStyle } from "../http/SecurityHeaders.js"
import { FAVICON_LINK } from "../lib/Html.js"

/** The sign-up page. */
export const SIGN_UP_PATH = "/signup"

interface PageOptions {
  readonly title: string
  readonly working: string
  readonly endpoint: string
  /** JavaScript expression over `body` (the operation's JSON answer): the line shown on success. */
  readonly success: string
  /** JavaScript expression: where the browser goes once the token was taken (after showing the line), if anywhere. */
  readonly then?: string
  /** JavaScript run when the page has no token, instead of saying the link is incomplete. */
  readonly withoutToken?: string
}

// The style of the pages, their forms included (the CSP allows no style attribute).
const STYLE = inlineStyle(`
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;color:#0f172a;font:16px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{background:#fff;border-radius:14px;padding:36px 40px;max-width:440px;box-shadow:0 10px 30px rgba(15,23,42,.08)}
p.brand{margin:0 0 14px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#64748b}
p.brand a{color:inherit;text-decoration:none}
h1{margin:0 0 10px;font-size:22px}#status{margin:0;color:#334155}#status.ok{color:#166534}#status.error{color:#b91c1c}
#email{width:100%;box-sizing:border-box;padding:9px 10px;margin:14px 0 10px;border:1px solid #cbd5e1;border-radius:8px;font:inherit}
form.fields{margin-top:14px}form.fields label{display:block;margin:10px 0 4px;font-size:14px;color:#334155}
form.fields input{width:100%;box-sizing:border-box;padding:9px 10px;border:1px solid #cbd5e1;border-radius:8px;font:inherit}
form.fields #email{margin:0}form.fields button{margin-top:16px}.muted{color:#64748b}
form button{background:#0f172a;color:#fff;border:0;border-radius:8px;padding:9px 16px;font:inherit;cursor:pointer}
form button:disabled{opacity:.6;cursor:default}
p.alt{margin:18px 0 0;font-size:14px;color:#64748b}a{color:#1d4ed8}
`)

const HEAD = (title: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title} · Callsight</title>
${FAVICON_LINK}
${STYLE}</head>`

// Static text, made when the module loads: its script is allowed by its hash (http/SecurityHeaders.ts).
const page = (o: PageOptions) => `${HEAD(o.title)}
<body><main><p class="brand">Callsight</p><h1>${o.title}</h1><p id="status" role="status">${o.working}</p></main>
${inlineScript(`
(function () {
  var status = document.getElementById("status")
  var show = function (text, kind) { status.textContent = text; status.className = kind }
  var token = new URLSearchParams(location.hash.slice(1)).get("token")
  var query = new URLSearchParams(location.search)
  history.replaceState(null, "", location.pathname)
  if (!token) { ${o.withoutToken ?? `show("This link has no token. Open the link from the e-mail again.", "error")`}; return }
  fetch(${JSON.stringify(o.endpoint)}, {
    method: "POST", credentials: "same-origin",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ token: token })
  }).then(function (response) {
    return response.json().then(function (body) {
      if (response.ok) { show(${o.success}, "ok")${o.then === undefined ? "" : `; location.replace(${o.then})`} }
      else show((body && body.message) || "The link could not be used.", "error")
    })
  }).catch(function () { show("The service could not be reached. Try again in a moment.", "error") })
})()
`)}</body></html>`

/** Without a token: a form that asks for a sign-in link by e-mail (`POST /v1/client-auth/login`). */
const ASK_FOR_LINK = `
  var next = query.get("next")
  if (next && /^\\/app(\\/|$)/.test(next)) localStorage.setItem("callsight.next", next)
  document.querySelector("h1").textContent = "Sign in"
  show("Enter your work e-mail: we send you a link that signs you in.", "info")
  var form = document.createElement("form")
  form.innerHTML = '<input id="email" type="email" required autocomplete="email" placeholder="you@company.com">' +
    '<button type="submit">E-mail me a link</button>'
  status.after(form)
  var signup = document.createElement("p")
  signup.className = "alt"
  signup.innerHTML = 'No account yet? <a href="${SIGN_UP_PATH}">Sign up</a>: we e-mail you the link.'
  form.after(signup)
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
  // where the person was when asked to sign in (the app keeps it while the link travels by e-mail), else the app
  then: `(function () { var n = localStorage.getItem("callsight.next"); localStorage.removeItem("callsight.next"); return n && /^\\/app(\\/|$)/.test(n) ? n : "/app/" })()`,
  withoutToken: ASK_FOR_LINK
})

const VERIFY_EMAIL = page({
  title: "Confirming your e-mail",
  working: "Checking your link…",
  endpoint: "/v1/client-portal/closers/verify-email",
  success: `"Thank you: " + body.email + " is confirmed."`
})

/** The sign-up form: posts it as JSON and says what happens next (the e-mailed link), or what was refused. */
const SIGN_UP_SCRIPT = inlineScript(`
(function () {
  var form = document.getElementById("signup")
  var status = document.getElementById("status")
  var button = form.querySelector("button")
  var show = function (text, kind) { status.textContent = text; status.className = kind }
  var value = function (id) { return document.getElementById(id).value.trim() }
  var FIELDS = { email: "Enter a valid work e-mail address.", company_name: "Enter your company's name (up to 200 characters).",
    full_name: "Your name is at most 200 characters." }
  var problem = function (status, body) {
    if (status === 422 && body && body.detail && body.detail.length) {
      var said = []
      body.detail.forEach(function (d) {
        var line = FIELDS[d.loc[d.loc.length - 1]] || d.msg
        if (said.indexOf(line) < 0) said.push(line)
      })
      return said.join(" ")
    }
    return (body && body.message) || "The account could not be created. Try again in a moment."
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault()
    var body = { email: value("email"), company_name: value("company_name") }
    if (value("full_name") !== "") body.full_name = value("full_name")
    button.disabled = true
    show("Creating your account…", "info")
    fetch("/v1/client-auth/signup", {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json" }, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (response.ok) {
          form.remove()
          document.getElementById("next").innerHTML = answer.magic_link_sent
            ? 'No e-mail within a few minutes? Look in the spam folder, or <a href="${SIGN_IN_PATH}">ask for a new link</a>.'
            : '<a href="${SIGN_IN_PATH}">Ask for a new sign-in link</a>.'
          show(answer.magic_link_sent
            ? "Your account is ready. Check your inbox: we sent a sign-in link to " + answer.email +
              ". Open it to sign in and land on your portal; it works once, for 15 minutes."
            : "Your account is ready, but the e-mail with your sign-in link could not be sent. Ask for a new link on the sign-in page.",
            "ok")
        } else {
          button.disabled = false
          show(problem(response.status, answer), "error")
        }
      })
    }).catch(function () { button.disabled = false; show("The service could not be reached. Try again in a moment.", "error") })
  })
})()
`)

const SIGN_UP = `${HEAD("Sign up")}
<body><main><p class="brand"><a href="/">Callsight</a></p><h1>Sign up</h1>
<p id="status" role="status" class="info">Create your company's account. We e-mail you a link that signs you in and opens your portal: there is no password.</p>
<form id="signup" class="fields">
<label for="email">Work e-mail</label>
<input id="email" name="email" type="email" required autocomplete="email" placeholder="you@company.com">
<label for="company_name">Company</label>
<input id="company_name" name="company_name" type="text" required maxlength="200" autocomplete="organization" placeholder="Acme Inc.">
<label for="full_name">Your name <span class="muted">(optional)</span></label>
<input id="full_name" name="full_name" type="text" maxlength="200" autocomplete="name">
<button type="submit">Create the account</button>
</form>
<p class="alt" id="next">Already have an account? <a href="${SIGN_IN_PATH}">Sign in</a>, and we e-mail you a new link.</p>
</main>
${SIGN_UP_SCRIPT}</body></html>`

export const PagesLive = HttpApiBuilder.Router.use((router) =>
  Effect.all([
    router.get(SIGN_IN_PATH, HttpServerResponse.html(SIGN_IN)),
    router.get(SIGN_UP_PATH, HttpServerResponse.html(SIGN_UP)),
    router.get("/verify-email", HttpServerResponse.html(VERIFY_EMAIL))
  ])
)
