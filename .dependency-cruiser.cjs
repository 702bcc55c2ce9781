/**
 * The shape of packages/server/src and packages/analysis/src, checked by `npm run lint`
 * (dependency-cruiser). docs/architecture.md draws it.
 *
 * - Features: one folder per api-spec group (`auth` serves clientAuth, `portal` serves clientPortal
 *   and portalPublic), and `mcp` (the MCP door). Features never import features: they meet on the
 *   shared floor, or through a port.
 * - The shared floor: `tenancy`, `events`, `calls`, `views` (the views several doors answer),
 *   `conversation` (the chat engine behind the workspace chat and the portal concierge), `ports`,
 *   `db`, `lib`, `mail`, `http`, `config.ts`, `Observability.ts`, `version.ts`. Every feature may
 *   use it; it uses no feature.
 * - Ports (`ports/`): the service tags one feature implements (in a `…Live.ts` of its folder) and
 *   others use; `main.ts` provides the implementations.
 * - The provider engines, `transcription` (the speech-to-text adapters) and `llm` (the LLM
 *   adapters), use only `ports`, `lib`, `config.ts` and `@callsight/analysis`; their outgoing
 *   requests are in `ProviderHttp.ts` (an `Http.ts` is always a group's handler table).
 * - The analysis engine is its own package, `packages/analysis` (`@callsight/analysis`): pure, no
 *   HTTP, no SQL, nothing of the server. The server imports it; it imports nothing of the server.
 * - The top: `HttpApp.ts` assembles the groups, `main.ts` composes the layers, `index.ts` exports.
 *   Nothing below imports them.
 * - SQL lives in repositories: only `*Repo.ts`, `*Queries.ts`, `*Store.ts` and `db/` import
 *   `@effect/sql` for anything but types; services run transactions through `db/Transactions.ts`.
 */
const src = "^packages/server/src"
const analysis = "^packages/analysis/src"
const features = "(probes|auth|portal|integrations|recorder|coaching|companion|admin|marketIntel|workspace|assistant|audio|extensions|webhooks|mcp)"
const floor = `${src}/(tenancy|events|calls|views|conversation|ports|db|lib|mail|http)/|${src}/(config|Observability|version)\\.ts$`

module.exports = {
  forbidden: [
    {
      name: "feature-imports-feature",
      comment: "Features never import features: meet on the shared floor or through a service tag defined there.",
      severity: "error",
      from: { path: `${src}/${features}/` },
      to: { path: `${src}/${features}/`, pathNot: `${src}/$1/` }
    },
    {
      name: "floor-imports-feature",
      comment: "The shared floor serves every feature and uses none.",
      severity: "error",
      from: { path: floor },
      to: { path: `${src}/${features}/` }
    },
    {
      name: "engines-use-ports",
      comment: "The provider engines (transcription, llm) use only ports/, lib/, config.ts and @callsight/analysis.",
      severity: "error",
      from: { path: `${src}/(transcription|llm)/` },
      to: { path: `${src}/`, pathNot: [`${src}/$1/`, `${src}/(ports|lib)/`, `${src}/config\\.ts$`] }
    },
    {
      name: "analysis-stays-pure",
      comment: "The analysis package has no HTTP and no SQL, and imports nothing of the server.",
      severity: "error",
      from: { path: `${analysis}/` },
      to: {
        path: [
          "^packages/(server|client|cli)/",
          "node_modules/(@effect/sql|@effect/sql-pg|@effect/platform|@effect/platform-node|pg|@electric-sql|undici)/",
          "^(http|https|net|dgram|http2|tls)$"
        ]
      }
    },
    {
      name: "imports-the-top",
      comment: "HttpApp.ts and main.ts assemble everything; nothing below imports them.",
      severity: "error",
      from: { path: `${src}/`, pathNot: `${src}/(main|index|HttpApp)\\.ts$` },
      to: { path: `${src}/(HttpApp|main|index)\\.ts$` }
    },
    {
      name: "sql-outside-repositories",
      comment: "SQL lives in repositories (*Repo.ts, *Queries.ts, *Store.ts) and db/; services use db/Transactions.ts.",
      severity: "error",
      from: { path: `${src}/`, pathNot: [`${src}/db/`, "(Repo|Queries|Store)\\.ts$"] },
      to: { path: "node_modules/@effect/sql(-pg)?/", dependencyTypesNot: ["type-only"] }
    },
    {
      name: "no-circular",
      comment: "A module cycle in the server.",
      severity: "error",
      from: { path: `${src}/` },
      to: { circular: true }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["source", "import", "require", "node", "default"],
      mainFields: ["module", "main", "types", "typings"]
    }
  }
}
