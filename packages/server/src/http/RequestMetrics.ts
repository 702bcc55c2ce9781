/**
 * In-memory request metrics for `/metrics`: per route, counts by status class and a latency
 * histogram with fixed log-spaced buckets, so memory stays bounded however long the process runs.
 */
import { Effect } from "effect"

// Bucket upper bounds in ms: 0.05 ms to ~2 min, each 10 % above the last (about 155 buckets).
const BOUNDS: ReadonlyArray<number> = (() => {
  const bounds: Array<number> = []
  for (let b = 0.05; b < 120_000; b *= 1.1) bounds.push(b)
  bounds.push(Number.POSITIVE_INFINITY)
  return bounds
})()

const bucketOf = (ms: number): number => {
  let lo = 0
  let hi = BOUNDS.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (ms <= BOUNDS[mid]) hi = mid
    else lo = mid + 1
  }
  return lo
}

class RouteStats {
  readonly buckets = new Uint32Array(BOUNDS.length)
  readonly byClass = [0, 0, 0, 0, 0] // 1xx..5xx
  count = 0
  sumMs = 0
  maxMs = 0

  record(status: number, ms: number) {
    this.count++
    this.sumMs += ms
    this.maxMs = Math.max(this.maxMs, ms)
    const cls = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1
    this.byClass[cls]++
    this.buckets[bucketOf(ms)]++
  }

  merge(other: RouteStats) {
    this.count += other.count
    this.sumMs += other.sumMs
    this.maxMs = Math.max(this.maxMs, other.maxMs)
    for (let i = 0; i < 5; i++) this.byClass[i] += other.byClass[i]
    for (let i = 0; i < BOUNDS.length; i++) this.buckets[i] += other.buckets[i]
  }

  /** The q-quantile, interpolated inside its bucket and never above the largest value seen. */
  quantile(q: number): number {
    if (this.count === 0) return 0
    const rank = q * this.count
    let seen = 0
    for (let i = 0; i < BOUNDS.length; i++) {
      const n = this.buckets[i]
      if (n > 0 && seen + n >= rank) {
        const lower = i === 0 ? 0 : BOUNDS[i - 1]
        const upper = Math.min(BOUNDS[i], this.maxMs)
        const value = lower + (upper - lower) * ((rank - seen) / n)
        return Math.round(Math.min(value, this.maxMs) * 1000) / 1000
      }
      seen += n
    }
    return this.maxMs
  }

  view(route: string) {
    const rate = (n: number) => (this.count === 0 ? 0 : Math.round((n / this.count) * 10_000) / 10_000)
    return {
      route,
      count: this.count,
      sum_ms: this.sumMs,
      status_2xx: this.byClass[1],
      status_3xx: this.byClass[2],
      status_4xx: this.byClass[3],
      status_5xx: this.byClass[4],
      error_rate_4xx: rate(this.byClass[3]),
      error_rate_5xx: rate(this.byClass[4]),
      latency_ms: { p50: this.quantile(0.5), p90: this.quantile(0.9), p99: this.quantile(0.99) }
    }
  }
}

export type RouteView = ReturnType<RouteStats["view"]>

export class RequestMetrics extends Effect.Service<RequestMetrics>()("RequestMetrics", {
  sync: () => {
    const startedAt = new Date()
    const routes = new Map<string, RouteStats>()

    /** One answered request (the server's middleware, as the request ends). */
    const add = (route: string, status: number, ms: number) => {
      let stats = routes.get(route)
      if (stats === undefined) {
        stats = new RouteStats()
        routes.set(route, stats)
      }
      stats.record(status, ms)
    }

    const snapshot = Effect.sync(() => {
      const total = new RouteStats()
      const views: Array<RouteView> = []
      for (const [route, stats] of [...routes.entries()].sort(([a], [b]) => a.localeCompare(b))) {
        total.merge(stats)
        views.push(stats.view(route))
      }
      return {
        started_at: startedAt.toISOString(),
        uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000),
        total: total.view("*"),
        routes: views
      }
    })

    return { add, snapshot } as const
  }
}) {}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

/** The Prometheus text exposition format (version 0.0.4) of a snapshot. */
export const toPrometheus = (snapshot: Effect.Effect.Success<RequestMetrics["snapshot"]>): string => {
  const lines: Array<string> = [
    "# HELP callsight_http_requests_total HTTP requests by route and status class.",
    "# TYPE callsight_http_requests_total counter"
  ]
  for (const r of snapshot.routes) {
    const route = escapeLabel(r.route)
    for (const [cls, n] of [["2xx", r.status_2xx], ["3xx", r.status_3xx], ["4xx", r.status_4xx], ["5xx", r.status_5xx]] as const) {
      lines.push(`callsight_http_requests_total{route="${route}",status="${cls}"} ${n}`)
    }
  }
  lines.push(
    "# HELP callsight_http_request_duration_ms HTTP request latency in milliseconds.",
    "# TYPE callsight_http_request_duration_ms summary"
  )
  for (const r of snapshot.routes) {
    const route = escapeLabel(r.route)
    lines.push(
      `callsight_http_request_duration_ms{route="${route}",quantile="0.5"} ${r.latency_ms.p50}`,
      `callsight_http_request_duration_ms{route="${route}",quantile="0.9"} ${r.latency_ms.p90}`,
      `callsight_http_request_duration_ms{route="${route}",quantile="0.99"} ${r.latency_ms.p99}`,
      `callsight_http_request_duration_ms_sum{route="${route}"} ${r.sum_ms}`,
      `callsight_http_request_duration_ms_count{route="${route}"} ${r.count}`
    )
  }
  lines.push(
    "# HELP callsight_uptime_seconds Seconds since the process started serving.",
    "# TYPE callsight_uptime_seconds gauge",
    `callsight_uptime_seconds ${snapshot.uptime_s}`
  )
  return lines.join("\n") + "\n"
}
