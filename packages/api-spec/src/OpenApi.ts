/**
 * The OpenAPI 3.1 document of the declaration, as `GET /openapi.json` serves it: the one writer
 * behind `callsight openapi` and `npm run lint:openapi` (`scripts/openapi.ts`).
 */
import { OpenApi } from "@effect/platform"
import { CallsightApi } from "./Api.js"

export const openApiDocument = (): OpenApi.OpenAPISpec => OpenApi.fromApi(CallsightApi)

/** The document as JSON text, two-space indented, ending in a newline. */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`
