/**
 * `/portal/integrations`: where the OAuth callbacks send the browser once a closer's calendar or
 * video-meeting tool is connected. A static page that reads its query (`integration`, `status`)
 * and says what happened; it shows nothing of the account, so it needs no session. Its inline
 * script and style are allowed by their hashes (http/SecurityHeaders.ts).
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { inlineScript, inlineStyle } from "../http/SecurityHeaders.js"

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Integrations · Callsight</title>
${inlineStyle(`
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;color:#0f172a;font:16px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{background:#fff;border-radius:14px;padding:36px 40px;max-width:440px;box-shadow:0 10px 30px rgba(15,23,42,.08)}
p.brand{margin:0 0 14px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#64748b}
h1{margin:0 0 10px;font-size:22px}#status{margin:0;color:#166534}
`)}</head>
<body><main><p class="brand">Callsight</p><h1 id="title">Integrations</h1><p id="status" role="status"></p></main>
${inlineScript(`
(function () {
  var query = new URLSearchParams(location.search)
  var tool = { calendar: "calendar", video: "video-meeting tool" }[query.get("integration")] || "integration"
  if (query.get("status") === "connected") {
    document.getElementById("title").textContent = "The " + tool + " is connected"
    document.getElementById("status").textContent = "Meetings on it can now be recorded and analysed. You can close this tab."
  }
})()
`)}</body></html>`

export const IntegrationPagesLive = HttpApiBuilder.Router.use((router) =>
  router.get("/portal/integrations", HttpServerResponse.html(PAGE))
)
