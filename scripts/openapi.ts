/**
 * Writes the OpenAPI document (`openApiText` of the api-spec, what `GET /openapi.json` serves and
 * `callsight openapi` prints) to the file named, straight from the api-spec sources: `npm run
 * lint` lints it with Redocly without a build.
 */
import { openApiText } from "@callsight/api-spec"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"

const out = process.argv[2] ?? "build/openapi.json"
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, openApiText())
