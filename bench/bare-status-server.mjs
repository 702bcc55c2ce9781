/**
 * The baseline of bench/status.bench.ts: bare `node:http` and `pg` answering the same status poll
 * as `GET /analysis/{call_id}` with the same two queries (the tenant key by its SHA-256, the call's
 * status row by tenant and id: the service's own statement) and the same pool size, and a `/health`
 * answering the service's fields
 * reporting a database ping shared by the requests of the same second. What Node and PostgreSQL
 * allow on this machine; no framework, no validation, no logging.
 *
 *   PORT=… DATABASE_URL=… DB_POOL_MAX=10 node bench/bare-status-server.mjs
 */
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) })

const send = (res, status, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

let ping = { at: 0, result: Promise.resolve({ connected: false, latency_ms: null, error: "not yet" }) }
const recentPing = () => {
  if (Date.now() - ping.at >= 1000) {
    const started = performance.now()
    ping = {
      at: Date.now(),
      result: pool.query("SELECT 1").then(
        () => ({ connected: true, latency_ms: Math.round((performance.now() - started) * 1000) / 1000, error: null }),
        (error) => ({ connected: false, latency_ms: null, error: String(error.message) })
      )
    }
  }
  return ping.result
}
const startedAt = Date.now()

const server = createServer(async (req, res) => {
  try {
    if (req.url === "/health") {
      // the service's answer (api-spec HealthResponse), field for field
      const db = await recentPing()
      return send(res, 200, {
        status: db.connected ? "ok" : "degraded",
        version: "0.1.0",
        api_version: "1.0.0",
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        database: { backend: "postgres", ...db }
      })
    }
    const match = /^\/analysis\/([^/?]+)/.exec(req.url ?? "")
    if (match === null) return send(res, 404, { message: "not found" })
    const key = req.headers["x-api-key"]
    if (typeof key !== "string") return send(res, 422, { message: "no key" })
    const hash = createHash("sha256").update(key).digest("hex")
    const keys = await pool.query("SELECT key_id, client_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL", [hash])
    if (keys.rows.length === 0) return send(res, 401, { message: "invalid API key" })
    // the service's status statement (calls/CallsRepo.ts findStatus), as the stack floor runs it
    const calls = await pool.query(
      `SELECT call_id, external_call_id, closer_email, status, stage, progress, created_at, started_at,
              completed_at, duration_s, error_code, error_message, occurred_at, deal_id, account_id,
              (result -> 'scorecard' ->> 'overall')::float8 AS overall_score,
              (result -> 'metrics' ->> 'talk_ratio')::float8 AS talk_ratio,
              jsonb_array_length(result -> 'speakers') AS speakers,
              COALESCE(jsonb_typeof(result -> 'transcript') = 'array', false) AS transcript_available,
              (SELECT COALESCE(-SUM(delta), 0)::int FROM credit_ledger l
               WHERE l.call_id = calls.call_id AND l.reason = 'analysis') AS credits_charged,
              attendees,
              (SELECT a.name FROM accounts a WHERE a.account_id = calls.account_id) AS account_name,
              (SELECT a.domain FROM accounts a WHERE a.account_id = calls.account_id) AS account_domain,
              (SELECT d.external_deal_id FROM deals d WHERE d.deal_id = calls.deal_id) AS external_deal_id
       FROM calls WHERE client_id = $1 AND call_id = $2`,
      [keys.rows[0].client_id, decodeURIComponent(match[1])]
    )
    if (calls.rows.length === 0) return send(res, 404, { message: "no call" })
    send(res, 200, calls.rows[0])
  } catch (error) {
    send(res, 500, { message: String(error) })
  }
})

server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"))
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))))
