/**
 * Rounding, as the content analysis reports its numbers: to `digits` decimals, and never -0.
 */

export const round = (x: number, digits: number) => {
  const f = 10 ** digits
  const r = Math.round(x * f) / f
  return r === 0 ? 0 : r
}
