/**
 * Escaping and formatting for the report: the HTML escape, clock times, durations in words,
 * percentages, signed points, dates, a score's grade, and text shortened at a word boundary.
 */
import { escapeHtml } from "./Html.js"

export const e = escapeHtml

export const isNum = (x: number | null | undefined): x is number => typeof x === "number" && Number.isFinite(x)

/** 75 → "1:15", 3725 → "1:02:05". */
export const formatClock = (seconds: number): string => {
  const s = Math.max(0, Math.round(isNum(seconds) ? seconds : 0))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`
}

/** A duration in words: "13 s", "2 min 05 s", "1 h 02 min". */
export const formatDuration = (seconds: number): string => {
  if (!isNum(seconds)) return "—"
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`
  const s = Math.round(seconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`
}

export const pct = (fraction: number) => `${Math.round(fraction * 100)} %`
export const fixed1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1)
export const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0")

/** "2025-03-12 14:03 UTC", or the raw text when it is not a date. */
export const formatDate = (iso: string): string => {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`
}

export const grade = (score: number): "good" | "fair" | "poor" => (score >= 70 ? "good" : score >= 50 ? "fair" : "poor")
export const GRADE_LABEL = { good: "Strong", fair: "Fair", poor: "Needs work" } as const

/** Shorten text to about `max` characters at a word boundary (before escaping). */
export const clip = (text: string, max: number): string => {
  const t = text.replace(/\s+/g, " ").trim()
  if (t.length <= max) return t
  const cut = t.slice(0, max)
  const space = cut.lastIndexOf(" ")
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.…-]+$/, "")}…`
}
