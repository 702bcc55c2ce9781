/**
 * Honest figures: every rate with its sample, its count, the tenants behind it and a Wilson 95 %
 * interval; and the rules that withhold a figure that could be traced back to one customer.
 *
 * - `min_sample`: a rate or an average over fewer than `MIN_SAMPLE` (5) items is withheld; its `n`
 *   is shown, so the reader knows why.
 * - `min_tenants`: a cross-tenant figure fed by fewer than `MIN_TENANTS` (3) tenants is withheld
 *   whole: value, count and `n`; only the number of tenants is shown. A cell (a segment in a
 *   period) with calls from 1 or 2 tenants shows none of its counts. Per-tenant figures (a
 *   tenant's own adoption, its radar) are staff views of that tenant: only `min_sample` applies.
 */
import type { SampledAverage, SampledRate, Suppression } from "@callsight/api-spec"

export const MIN_SAMPLE = 5
export const MIN_TENANTS = 3
/** The 97.5th percentile of the standard normal: a two-sided 95 % interval. */
export const Z95 = 1.959964

export type Scope = "cross_tenant" | "one_tenant"

export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

/** The Wilson score interval of `count` successes in `n` trials (n > 0), 4 decimals. */
export const wilson = (count: number, n: number, z = Z95): { readonly low: number; readonly high: number } => {
  const p = count / n
  const z2 = z * z
  const denominator = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  return { low: round(Math.max(0, centre - half), 4), high: round(Math.min(1, centre + half), 4) }
}

/** The width of the Wilson interval at the rate `p` with `n` trials; 1 without any. */
export const wilsonWidth = (p: number, n: number, z = Z95): number => {
  if (n <= 0) return 1
  const z2 = z * z
  return (2 * (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n)))
}

const plural = (n: number, word: string) => `${n} ${n === 1 ? word.replace(/s$/, "") : word}`

export const tenantSuppression = (tenants: number): Suppression => ({
  code: "min_tenants",
  message: `fed by ${plural(tenants, "tenants")}: at least ${MIN_TENANTS} are needed`
})

const sampleSuppression = (n: number, what: string): Suppression => ({
  code: "min_sample",
  message: n === 0 ? `no ${what}` : `${plural(n, what)}: at least ${MIN_SAMPLE} are needed`
})

/** Whether a cross-tenant cell fed by `tenants` tenants is withheld (an empty cell tells nothing). */
export const cellSuppressed = (tenants: number, scope: Scope = "cross_tenant"): Suppression | null =>
  scope === "cross_tenant" && tenants > 0 && tenants < MIN_TENANTS ? tenantSuppression(tenants) : null

/** `count` ÷ `n`, with its interval, or withheld by the rules. `what` names the sample's items ("decided outcomes"). */
export const rate = (count: number, n: number, tenants: number, what: string, scope: Scope = "cross_tenant"): SampledRate => {
  if (scope === "cross_tenant" && n > 0 && tenants < MIN_TENANTS) {
    return { value: null, count: null, n: null, tenants, interval: null, suppressed: tenantSuppression(tenants) }
  }
  if (n < MIN_SAMPLE) return { value: null, count: null, n, tenants, interval: null, suppressed: sampleSuppression(n, what) }
  return { value: round(count / n, 4), count, n, tenants, interval: wilson(count, n), suppressed: null }
}

/** `sum` ÷ `n` to `digits` decimals, or withheld by the rules. */
export const average = (
  sum: number,
  n: number,
  tenants: number,
  what: string,
  digits: number,
  scope: Scope = "cross_tenant"
): SampledAverage => {
  if (scope === "cross_tenant" && n > 0 && tenants < MIN_TENANTS) {
    return { value: null, n: null, tenants, suppressed: tenantSuppression(tenants) }
  }
  if (n < MIN_SAMPLE) return { value: null, n, tenants, suppressed: sampleSuppression(n, what) }
  return { value: round(sum / n, digits), n, tenants, suppressed: null }
}

/** Whether a figure is shown (not withheld). */
export const shown = (figure: { readonly suppressed: Suppression | null }): boolean => figure.suppressed === null
