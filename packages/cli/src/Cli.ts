/**
 * The `callsight` command tree:
 *
 *   callsight serve [--no-worker]
 *   callsight worker
 *   callsight upload FILE [--external-id ID] [--closer-email E] [--call-type TYPE] [--rep-channel C] [--idempotency-key K] [--wait]
 *                         [--report OUT.html] [--timeout S] [--json] [--url URL] [--api-key K]
 *   callsight status CALL_ID [--wait] [--timeout S] [--json] [--url URL] [--api-key K]
 *   callsight report CALL_ID [-o FILE] [--url URL] [--api-key K]
 *   callsight result CALL_ID [--json] [--url URL] [--api-key K]
 *   callsight calls list [--limit N] [--cursor CURSOR] [--all] [--status S] [--closer EMAIL] [--from TIME]
 *                        [--to TIME] [--min-score N] [--max-score N] [--json] [--url URL] [--api-key K]
 *   callsight admin create-tenant --name NAME [--owner-email E] [--owner-name N] [--industry I]
 *                                 [--credits N] [--plan P] [--test] [--json] [--url URL] [--admin-key K]
 *   callsight admin grant-credits CLIENT_ID N [--reason R] [--json] [--url URL] [--admin-key K]
 *   callsight admin members list|invite|resend|revoke|set-role|remove CLIENT_ID ... [--json] [--url URL] [--admin-key K]
 *   callsight login EMAIL [--url URL]
 *   callsight verify TOKEN [--json] [--url URL]
 *   callsight me [--json] [--url URL]
 *   callsight logout [--url URL]
 *   callsight openapi [-o FILE]
 *   callsight mcp [--url URL] [--api-key K]
 *   callsight webhooks add URL [--event E]... [--description D] | list | remove ID | deliveries ID | redeliver ID MSG_ID
 *   callsight trackers list | add NAME --term T... [--kind K] | remove ID | report [--from D] [--to D] [--period P] ... [--json]
 *   callsight trends [--period week|month] [--periods N] [--since D] [--until D] [--closer EMAIL] [--json]
 *   callsight audit create (--call ID... | --last-per-closer N) [--title T] | list | show ID | report ID [-o FILE] | pdf ID -o FILE
 *   callsight --version | --help | COMMAND --help   (help pages: Help.ts)
 *
 * Exit codes: 0 success, 1 analysis failed, 2 usage error, 3 service error.
 */
import { VERSION } from "@callsight/api-spec"
import { Command } from "@effect/cli"
import { Console, Effect } from "effect"
import { admin } from "./Admin.js"
import { audioCommands } from "./Audio.js"
import { calls } from "./Calls.js"
import { audit } from "./ClosingAudits.js"
import { UsageError } from "./Errors.js"
import { asksForHelp, commandPath, commandTree, group, helpPage, HelpRequested } from "./Help.js"
import { mcp } from "./Mcp.js"
import { openapi } from "./OpenApi.js"
import { withOutput } from "./Output.js"
import { serve } from "./Serve.js"
import { sessionCommands } from "./Session.js"
import { trackers } from "./Trackers.js"
import { trends } from "./Trends.js"
import { webhooks } from "./Webhooks.js"
import { worker } from "./Worker.js"

export const callsight = group(
  "callsight",
  "Callsight: sales-call intelligence service, its analysis workers, and its command-line client",
  [serve, worker, ...audioCommands, calls, ...sessionCommands, admin, openapi, webhooks, trackers, trends, audit, mcp]
)

/** The commands, for their help pages (Help.ts). */
export const callsightTree = commandTree(callsight)

/** The help page the command line `args` asks for. */
const printHelp = (args: ReadonlyArray<string>) => Console.log(helpPage(commandPath(callsightTree, args), VERSION))

/**
 * @effect/cli's `--wizard` (prompts for each option of a command): callsight has none; the
 * library offers no way to leave it out, so the command line refuses it.
 */
const asksForWizard = (args: ReadonlyArray<string>) => {
  const end = args.indexOf("--")
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg.toLowerCase() === "--wizard")
}

/**
 * Runs the command line `argv` (`process.argv`: the runtime and the script come first). Colours
 * only on a terminal without NO_COLOR; the parser's errors with the `callsight:` prefix (Output.ts);
 * help pages from Help.ts.
 */
export const run = (argv: ReadonlyArray<string>) =>
  withOutput(({ handlers }) => {
    const args = argv.slice(2)
    if (asksForHelp(args)) return printHelp(args)
    if (asksForWizard(args)) {
      return Effect.fail(new UsageError({ message: "unknown option --wizard (callsight --help lists the options)" }))
    }
    return Command.run(
      Command.transformHandler(callsight, (handler) => Effect.withConsole(handler, handlers)),
      { name: "callsight", version: VERSION }
    )(argv).pipe(
      Effect.catchIf((e) => e instanceof HelpRequested, () => printHelp(args)),
      // the run's resources (the HTTP agent of Connection.ts) close when it ends
      Effect.scoped
    )
  })
