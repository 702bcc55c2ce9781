/** The introduction of the reference page (`/docs`): the OpenAPI document's `info.description`. */
export const INTRODUCTION: string = `
Callsight analyses sales calls: upload a recording, and the service finds who spoke when, measures
the conversation (talk ratio, monologues, patience, interruptions, questions…), scores it on six
dimensions with the evidence behind every point, and renders a self-contained HTML report. With a
speech-to-text provider configured it also reads the words: qualification (MEDDPICC, BANT or
SPIN), objections and the rep's responses, dated next steps. Around the analysis: the portal of
sales teams, internal administration, and the interfaces of coaching, companion channels,
workspace and the internal assistant.

## Credentials

| who | credential | how to get it |
|---|---|---|
| Staff | the admin key, \`X-API-Key: <ADMIN_API_KEY>\` | the server's \`ADMIN_API_KEY\`; when it is unset, a key is generated at the first start and printed once in the log ("ADMIN_API_KEY is not set") |
| A tenant's systems and agents | a tenant API key, \`X-API-Key: csk_…\` | created with the tenant by \`POST /v1/internal/admin/clients\` (admin key; the key is in the answer, shown once), or by the tenant's owner or admin in the portal with \`POST /v1/client-portal/api-keys\` |
| People of a tenant (the portal) | the session cookie \`callsight_session\` | magic-link sign-in: \`POST /v1/client-auth/login\` with the e-mail, open the e-mailed link (or post its token to \`POST /v1/client-auth/verify\`), which sets the cookie (HttpOnly, 14 days) |
| The internal assistant | \`X-API-Key: <ASSISTANT_API_KEY>\` | the server's \`ASSISTANT_API_KEY\` (the admin key is accepted there too) |

Missing credentials are \`401\`: an operation called without its \`X-API-Key\` (or with an empty one)
answers \`401 Unauthorized\` with a \`message\` saying what to send and a \`WWW-Authenticate: ApiKey\`
challenge; a portal operation without a session, \`401\` naming the sign-in page (\`/sign-in\`) and
\`WWW-Authenticate: Cookie\`. An unknown key or session is \`401\`, a known key of the wrong kind
\`403\` (a tenant key on an admin path). The report, \`GET /reports/{call_id}/html\`, also opens in
a browser signed in to the portal, with the session alone.

## Analysing a call (tenant key)

1. **Upload**: \`POST /v1/teams/audio\`, multipart field \`audio\` (MP3, WAV or M4A; optional
   \`external_call_id\`, \`closer_email\`, header \`Idempotency-Key\`). The answer is \`202\` with the
   \`call_id\` and the links to poll. Not audio: \`415\`; empty: \`422\`; too large: \`413\`; no credit
   left: \`402\`.
2. **Poll** \`GET /analysis/{call_id}\` until \`status\` is \`completed\` or \`failed\` (\`stage\` and
   \`progress\` in between; a failed call has \`error.code\` and \`error.message\`).
3. **Fetch the report**: \`GET /reports/{call_id}/html\`, one self-contained page.
4. **Or the whole analysis** as JSON: \`GET /v1/teams/calls/{call_id}\` (speakers, turns, metrics,
   scorecard, evidence, transcript, qualification, objections, next steps); \`GET /v1/teams/calls\`
   lists the tenant's calls.

## Credits

One credit per completed analysis, taken when the call is marked \`completed\`. Failed analyses,
retries, status checks and report downloads cost nothing.

## Errors

Every error has a \`_tag\` and a status. \`422 ValidationFailed\` answers a request that does not
match this reference, with a \`detail\` list: \`{"detail": [{"loc": ["body", "email"], "msg": "…",
"type": "…"}]}\` (\`loc\` starts with \`path\`, \`query\`, \`header\` or \`body\`). The others carry a
\`message\`; a \`500\` also a \`trace_id\` that finds its cause in the server's log. An operation
that is declared but not built yet answers \`501 {"_tag": "NotImplemented", "operation",
"message"}\`, never a made-up answer; the caller's credential is checked first.
`.trim()
