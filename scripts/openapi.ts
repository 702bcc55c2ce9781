/**
 * Writes the OpenAPI document of the declaration to the file named (what `GET /openapi.json`
 * serves and `callsight openapi` prints), straight from the api-spec sources: `npm run lint`
 * lints it with Redocly without a build.
 */
import { CallsightApi } from "@callsight/api-spec"
import { OpenApi } from "@effect/platform"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"

const out = process.argv[2] ?? "build/openapi.json"
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${JSON.stringify(OpenApi.fromApi(CallsightApi), null, 2)}\n`)
