/**
 * `npm run policy`: writes the policy table (packages/server/src/tenancy/Policy.ts) into
 * docs/policy.md between its markers; a test (packages/server/test/Policy.test.ts) fails when the
 * document's table is not the code's.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { policyMarkdown } from "../packages/server/src/tenancy/Policy.js"

const START = "<!-- policy:start (npm run policy writes this table) -->"
const END = "<!-- policy:end -->"
const path = new URL("../docs/policy.md", import.meta.url)
const doc = readFileSync(path, "utf8")
const start = doc.indexOf(START)
const end = doc.indexOf(END)
if (start < 0 || end < start) throw new Error("docs/policy.md has no policy markers")
writeFileSync(path, `${doc.slice(0, start + START.length)}\n${policyMarkdown()}\n${doc.slice(end)}`)
