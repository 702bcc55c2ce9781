/**
 * How far two careful annotators agree: the second annotations in `agreement/` (written blind to
 * the first, from eval/README.md alone) read as findings against the first ones in `calls/`, with
 * the evaluation's own rule for a match at the level of turns (an item matches an item of the other
 * annotation that lists one of the same turns, each used once). This is the ceiling the analysis
 * can be held to: a person scores so against another person.
 *
 *   npm run --silent eval:agreement
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const HERE = dirname(fileURLToPath(import.meta.url))
const ITEMS = ["objections", "next_steps", "pains", "value_claims"] as const

type Item = { readonly turns?: ReadonlyArray<number>; readonly turn?: number }
const turnsOf = (item: Item): ReadonlySet<number> => new Set(item.turns ?? (item.turn === undefined ? [] : [item.turn]))
const read = (path: string): Record<string, ReadonlyArray<Item>> => JSON.parse(readFileSync(path, "utf8"))

const totals = Object.fromEntries(ITEMS.map((k) => [k, { first: 0, second: 0, agreed: 0 }]))
const files = readdirSync(join(HERE, "agreement")).filter((f) => f.endsWith(".annotation.json")).sort()
for (const file of files) {
  const first = read(join(HERE, "calls", file))
  const second = read(join(HERE, "agreement", file))
  for (const key of ITEMS) {
    const a = (first[key] ?? []).map(turnsOf)
    const b = (second[key] ?? []).map(turnsOf)
    const used = new Set<number>()
    let agreed = 0
    for (const found of b) {
      const i = a.findIndex((t, j) => !used.has(j) && [...found].some((turn) => t.has(turn)))
      if (i >= 0) {
        used.add(i)
        agreed++
      }
    }
    const t = totals[key]!
    t.first += a.length
    t.second += b.length
    t.agreed += agreed
  }
}
console.log(`Two annotators on ${files.length} calls (the second read as findings against the first; turn level)`)
console.log("  item            first  second  agreed  precision  recall")
for (const key of ITEMS) {
  const t = totals[key]!
  const ratio = (n: number, d: number) => (d === 0 ? "  –  " : (n / d).toFixed(2))
  console.log(`  ${key.padEnd(15)}${String(t.first).padStart(6)}${String(t.second).padStart(8)}${String(t.agreed).padStart(8)}${ratio(t.agreed, t.second).padStart(11)}${ratio(t.agreed, t.first).padStart(8)}`)
}
