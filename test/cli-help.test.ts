/**
 * `callsight --help` and the help of every command and subcommand, run in process: each argument
 * and option described in its own words (none of @effect/cli's generic sentences), no line over
 * 100 characters, no `--wizard` (refused on the command line too).
 */
import { allCommands, callsightTree, type CommandTree, HELP_WIDTH, sectionsOf } from "@callsight/cli"
import { VERSION } from "@callsight/api-spec"
import { Command } from "@effect/cli"
import { describe, expect, it } from "@effect/vitest"
import { Effect, HashMap } from "effect"
import { runCli } from "./utils/CliInProcess.js"

/** What @effect/cli 0.77 says of every value of a type, and its notes on optional or repeated options. */
const GENERIC = new RegExp(
  [
    "A true or false value",
    "A user-defined piece of text",
    "An integer\\.",
    "A floating point number",
    "A date without a time-zone",
    "A file\\.",
    "A file or directory",
    "A directory",
    "One of the following",
    "This setting is",
    "This option (can|may|must)",
    "This argument",
    "Defaults to:"
  ].join("|")
)

const paths = allCommands(callsightTree)
const words = (path: ReadonlyArray<CommandTree>) => path.slice(1).map((c) => c.name)

describe("callsight --help", () => {
  it("walks every command: the root, the groups and the commands of each group", () => {
    expect(paths.map((p) => p.map((c) => c.name).join(" "))).toEqual(
      expect.arrayContaining([
        "callsight",
        "callsight upload",
        "callsight calls",
        "callsight calls list",
        "callsight admin create-tenant",
        "callsight webhooks redeliver",
        "callsight trackers report",
        "callsight audit pdf",
        "callsight serve",
        "callsight mcp"
      ])
    )
    expect(paths.length).toBe(43)
    // the tree the help walks is the one @effect/cli parses (which answers a command without
    // subcommands with the command itself)
    for (const path of paths) {
      const node = path[path.length - 1]!
      const parsed = [...HashMap.keys(Command.getSubcommands(node.command))].sort()
      const walked = node.subcommands.length === 0 ? [node.name] : node.subcommands.map((c) => c.name).sort()
      expect(walked, node.name).toEqual(parsed)
    }
  })

  it.effect("gives every command a page of lines ≤ 100 characters, in its own words, without --wizard", () =>
    Effect.gen(function* () {
      for (const path of paths) {
        const command = ["callsight", ...words(path)].join(" ")
        const help = yield* runCli([...words(path), "--help"])
        expect(help.code, command).toBe(0)
        expect(help.stderr, command).toEqual([])
        expect(help.stdout[0], command).toBe(path.length === 1 ? `callsight ${VERSION}` : command)
        const long = help.stdout.filter((line) => line.length > HELP_WIDTH)
        expect(long, command).toEqual([])
        expect(help.stdout.filter((line) => GENERIC.test(line)), command).toEqual([])
        expect(help.stdout.join("\n"), command).not.toMatch(/wizard|--log-level/i)
        // bold headings on a terminal only (the test's streams are not)
        expect(help.stdout.join("\n"), command).not.toMatch(/\x1b\[/)
      }
    }))

  it("has a description for every argument and option of every command", () => {
    const undescribed = paths.flatMap((path) => {
      const { arguments: args, description, options } = sectionsOf(path[path.length - 1]!.command)
      const command = path.map((c) => c.name).join(" ")
      return [
        ...(description.join("").trim() === "" ? [`${command}: no description`] : []),
        ...[...args, ...options].filter((e) => e.description.trim() === "").map((e) => `${command} ${e.name}`)
      ]
    })
    expect(undescribed).toEqual([])
  })

  it.effect("lists each option of a command with what it does, and its usage", () =>
    Effect.gen(function* () {
      const help = yield* runCli(["calls", "list", "--help"])
      expect(help.stdout).toEqual([
        "callsight calls list",
        "",
        "The tenant's calls, newest first, filtered, a page at a time (--all: every page)",
        "",
        "USAGE",
        "  callsight calls list [--limit N] [--cursor CURSOR] [--all]",
        "                       [--status queued | processing | completed | failed] [--closer EMAIL]",
        "                       [--from TIME] [--to TIME] [--min-score N] [--max-score N] [--json]",
        "                       [--url URL] [--api-key KEY]",
        "",
        "OPTIONS",
        "  --limit N                 Calls per page, 1 to 200 (default 50); with --all, calls per request",
        "  --cursor CURSOR           Start where the page that gave this cursor ended (its next_cursor)",
        "  --all                     Follow the cursors to the last page and list every call",
        "  --status queued | processing | completed | failed",
        "                            Only calls in this status",
        "  --closer EMAIL            Only this closer's calls (the e-mail, any case)",
        "  --from TIME               Uploaded at or after this ISO-8601 time or date (UTC midnight)",
        "  --to TIME                 Uploaded at or before this ISO-8601 time, or on or before this date",
        "  --min-score N             Analysed calls with an overall score of at least N (0-100)",
        "  --max-score N             Analysed calls with an overall score of at most N (0-100)",
        "  --json                    Print the result as JSON on stdout (and nothing else there)",
        "  --url URL                 Base URL of the service (env CALLSIGHT_URL; default",
        "                            http://localhost:8080)",
        "  --api-key KEY             A tenant API key, csk_... (env CALLSIGHT_API_KEY)"
      ])
    }))

  it.effect("lists every command on the root page, with the global options and the exit codes", () =>
    Effect.gen(function* () {
      const help = yield* runCli(["--help"])
      const text = help.stdout.join("\n")
      for (const path of paths.filter((p) => p.length > 1 && p[p.length - 1]!.subcommands.length === 0)) {
        expect(text).toMatch(new RegExp(`^  ${words(path).join(" ")}  `, "m"))
      }
      expect(text).toMatch(/^ {2}-h, --help {2,}Show this help/m)
      expect(text).toMatch(/^ {2}--version {2,}Print the version/m)
      expect(text).toContain("Exit codes: 0 success, 1 the analysis failed, 2 usage error, 3 service error.")
    }))

  it.effect("prints a group's page for the group alone, -h and --help anywhere before --", () =>
    Effect.gen(function* () {
      const page = yield* runCli(["webhooks", "--help"])
      expect(page.stdout[0]).toBe("callsight webhooks")
      expect(page.stdout).toContain("  deliveries  What was sent to an endpoint, newest first, with each attempt's status code or error")
      for (const args of [["webhooks"], ["webhooks", "-h"], ["--help", "webhooks"], ["webhooks", "--HELP"]]) {
        const same = yield* runCli(args)
        expect(same, args.join(" ")).toEqual(page)
      }
      const upload = yield* runCli(["upload", "missing.mp3", "--json", "-h"])
      expect(upload.code).toBe(0)
      expect(upload.stdout[0]).toBe("callsight upload")
    }))

  it.effect("refuses --wizard with a usage error; --version still answers", () =>
    Effect.gen(function* () {
      for (const args of [["--wizard"], ["calls", "list", "--wizard"]]) {
        const wizard = yield* runCli(args)
        expect(wizard).toEqual({
          code: 2,
          stdout: [],
          stderr: ["callsight: unknown option --wizard (callsight --help lists the options)"]
        })
      }
      expect(yield* runCli(["--version"])).toMatchObject({ code: 0, stdout: [VERSION, ""] })
    }))
})
