/**
 * The `callsight` command tree:
 *
 *   callsight serve [--no-worker]
 *   callsight admin create-tenant --name NAME [--owner-email E] [--owner-name N] [--industry I]
 *                                 [--credits N] [--plan P] [--test] [--json] [--url URL] [--admin-key K]
 *   callsight admin grant-credits CLIENT_ID N [--reason R] [--json] [--url URL] [--admin-key K]
 *   callsight openapi [-o FILE]
 *   callsight --version | --help
 *
 * Exit codes: 0 success, 2 usage error, 3 service error (1 is kept for "analysis failed").
 */
import { VERSION } from "@callsight/server"
import { Command } from "@effect/cli"
import { admin } from "./Admin.js"
import { type Described, showHelp } from "./Errors.js"
import { openapi } from "./OpenApi.js"
import { serve } from "./Serve.js"

export const callsight = Command.make("callsight", {}, () => showHelp((): Described => callsight)).pipe(
  Command.withDescription("Callsight: sales-call intelligence service and its admin tools"),
  Command.withSubcommands([serve, admin, openapi])
)

/** Runs the command line `argv` (`process.argv`: the runtime and the script come first). */
export const run = Command.run(callsight, { name: "callsight", version: VERSION })
