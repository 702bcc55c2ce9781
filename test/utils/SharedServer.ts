/**
 * vitest's global setup: one `callsight serve` for the end-to-end files that need a server and
 * nothing of their own in it (its configuration, its log, its process), started once per run
 * instead of once per file: a start (the server's modules, the embedded database, the analysis
 * engine's first call) costs several seconds of CPU, which the files paid again each. Each file
 * works in tenants of its own, as the service's users do; files that stop the server, read its log
 * or configure it differently start their own (`startServer`).
 *
 * The server starts here without being waited for: the files that use it wait for `/ready`
 * (`sharedServer`), the others run meanwhile.
 */
import { randomUUID } from "node:crypto"
import { rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { launchServer } from "./ServeProcess.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared `callsight serve`: its URL and admin key; the file its failure to start is written to. */
    readonly sharedServer:
      | { readonly url: string; readonly adminKey: string; readonly failureFile: string }
      | { readonly unavailable: string }
  }
}

/**
 * The shared server's configuration: what its files need together (two analyses at a time under a
 * lease longer than any of theirs; webhooks retried and polled quickly).
 */
export const SHARED_SERVER_ENV = {
  WORKER_CONCURRENCY: "2",
  WORKER_LEASE_SECONDS: "30",
  WEBHOOK_RETRY_BASE_MS: "50",
  WEBHOOK_POLL_MS: "100"
}

export default async function setup(project: TestProject) {
  const context = project.getProvidedContext()
  const launched = await launchServer({
    env: SHARED_SERVER_ENV,
    readyTimeoutMs: 180_000,
    templates: { database: context.databaseTemplate, pgliteDir: context.pgliteTemplateDir }
  }).catch((error: Error) => error)
  // not built (a single file run without `npm run build`): the files that need it say so
  if (launched instanceof Error) {
    project.provide("sharedServer", { unavailable: launched.message })
    return
  }
  const server = launched
  // a start that fails is written where the files that wait for it look (sharedServer), so that
  // they fail at once with the server's output rather than at their time limit
  const failureFile = join(tmpdir(), `callsight-shared-server-${randomUUID()}.failed`)
  server.ready.catch((error: Error) => writeFileSync(failureFile, error.message))
  project.provide("sharedServer", { url: server.url, adminKey: server.adminKey, failureFile })
  return async () => {
    await server.stop()
    // a server stopped before it was ready fails its start: the failure is written, then removed
    await server.ready.catch(() => undefined)
    rmSync(failureFile, { force: true })
  }
}
