/**
 * The baseline of bench/status.bench.ts: bare `node:http` and `pg` answering the same status poll
 * as `GET /analysis/{call_id}` with the same two queries (the tenant key by its SHA-256, the call
 * by tenant and id) and the same pool size, and a `/health` route. What Node and PostgreSQL allow
 * on this machine; no framework, no validation, no logging.
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

const server = createServer(async (req, res) => {
  try {
    if (req.url === "/health") return send(res, 200, { status: "ok" })
    const match = /^\/analysis\/([^/?]+)/.exec(req.url ?? "")
    if (match === null) return send(res, 404, { message: "not found" })
    const key = req.headers["x-api-key"]
    if (typeof key !== "string") return send(res, 422, { message: "no key" })
    const hash = createHash("sha256").update(key).digest("hex")
    const keys = await pool.query("SELECT key_id, client_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL", [hash])
    if (keys.rows.length === 0) return send(res, 401, { message: "invalid API key" })
    const calls = await pool.query(
      `SELECT call_id, external_call_id, status, stage, progress, created_at, started_at, completed_at, duration_s,
              error_code, error_message FROM calls WHERE client_id = $1 AND call_id = $2`,
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
