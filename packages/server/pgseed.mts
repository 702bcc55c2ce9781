import { readFileSync } from "node:fs"
import { PGlite } from "@electric-sql/pglite"
const p = new PGlite({ loadDataDir: new Blob([readFileSync("/tmp/pgb/migrated.tar")]) }); await p.waitReady
const tables = await p.query<{ s: string; t: string }>(`SELECT schemaname s, tablename t FROM pg_tables WHERE schemaname NOT IN ('pg_catalog','information_schema')`)
console.log("tables", tables.rows.length, [...new Set(tables.rows.map(r => r.s))])
for (const { s, t } of tables.rows) { const c = await p.query<{ n: number }>(`SELECT count(*)::int n FROM "${s}"."${t}"`); if (c.rows[0]!.n > 0) console.log(s, t, c.rows[0]!.n) }
console.log((await p.query(`SELECT schemaname, sequencename, last_value FROM pg_sequences`)).rows)
console.log((await p.query(`SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid=a.attrelid JOIN pg_namespace n ON n.oid=c.relnamespace WHERE n.nspname='public' AND (a.attgenerated <> '' OR a.attidentity <> '')`)).rows)
const t0 = performance.now()
await p.exec(`TRUNCATE ${tables.rows.map(r => `"${r.s}"."${r.t}"`).join(", ")} RESTART IDENTITY CASCADE`)
console.log("truncate ms", performance.now() - t0)
const t1 = performance.now()
await p.exec(`TRUNCATE ${tables.rows.map(r => `"${r.s}"."${r.t}"`).join(", ")} RESTART IDENTITY CASCADE`)
console.log("truncate2 ms", performance.now() - t1)
