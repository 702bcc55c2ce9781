/**
 * The help pages of `callsight` (`--help`, `-h`, or a command that only groups others given
 * alone), written here rather than by @effect/cli, whose pages (0.77) put a generic sentence before
 * every option ("A true or false value.", "A user-defined piece of text."), list the built-in
 * options (`--wizard`, `--log-level`, ...) on every page and wrap nothing: the list of commands
 * came out in lines of 250 characters and more.
 *
 * What a page says still comes from the commands themselves, through @effect/cli's public API:
 * the description (`Command.withDescription`), the usage (`Command.getUsage`), and each argument
 * and option with the description it was given (`Args.withDescription`, `Options.withDescription`;
 * the library's own sentences are left out). Every line is at most `WIDTH` characters; headings
 * are bold, which Output.ts removes when stdout is not a terminal.
 */
import { CliConfig, Command, HelpDoc, type Span, Usage } from "@effect/cli"
import { Data, Effect, HashSet } from "effect"

/** The longest line of a help page. */
export const WIDTH = 100

export type AnyCommand = Command.Command<any, any, any, any>

/** Failed by a command that only groups others, given alone: `run` (Cli.ts) prints its help. */
export class HelpRequested extends Data.TaggedError("HelpRequested")<{}> {}

/** The subcommands of each command made by `group`. */
const groups = new WeakMap<AnyCommand, ReadonlyArray<AnyCommand>>()

/**
 * A command that only groups others (`callsight`, `callsight admin`, ...): given alone, it prints
 * its help, which lists them.
 */
export const group = <Name extends string, const Subcommands extends readonly [AnyCommand, ...Array<AnyCommand>]>(
  name: Name,
  description: string,
  subcommands: Subcommands
) => {
  const command = Command.make(name, {}, () => Effect.fail(new HelpRequested())).pipe(
    Command.withDescription(description),
    Command.withSubcommands(subcommands)
  )
  groups.set(command, subcommands)
  return command
}

/** A command and its subcommands (empty for a command that does something). */
export interface CommandTree {
  readonly name: string
  readonly command: AnyCommand
  readonly subcommands: ReadonlyArray<CommandTree>
}

export const commandTree = (command: AnyCommand): CommandTree => ({
  name: [...HashSet.values(Command.getNames(command))][0] ?? "",
  command,
  subcommands: (groups.get(command) ?? []).map(commandTree)
})

/** Every command of the tree, each with the names that lead to it from the root (the root's included). */
export const allCommands = (root: CommandTree): ReadonlyArray<ReadonlyArray<CommandTree>> => {
  const walk = (path: ReadonlyArray<CommandTree>): ReadonlyArray<ReadonlyArray<CommandTree>> => [
    path,
    ...path[path.length - 1]!.subcommands.flatMap((child) => walk([...path, child]))
  ]
  return walk([root])
}

/**
 * The command a command line names (`argv` without the runtime and the script): from the root,
 * each word that is a subcommand of the command reached so far, up to `--`.
 */
export const commandPath = (root: CommandTree, args: ReadonlyArray<string>): ReadonlyArray<CommandTree> => {
  const path = [root]
  for (const arg of args) {
    if (arg === "--") break
    const next = path[path.length - 1]!.subcommands.find((c) => c.name === arg)
    if (next !== undefined) path.push(next)
  }
  return path
}

/** Whether the command line asks for help (`--help` or `-h` before `--`, in any case, as @effect/cli reads it). */
export const asksForHelp = (args: ReadonlyArray<string>): boolean => {
  const end = args.indexOf("--")
  return (end === -1 ? args : args.slice(0, end)).some((arg) => ["--help", "-h"].includes(arg.toLowerCase()))
}

// ---------------------------------------------------------------------------------------------
// What the commands say
// ---------------------------------------------------------------------------------------------

const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    case "Highlight":
    case "Strong":
    case "Weak":
      return spanText(span.value)
  }
}

const flatten = (doc: HelpDoc.HelpDoc): ReadonlyArray<HelpDoc.HelpDoc> =>
  doc._tag === "Sequence" ? [...flatten(doc.left), ...flatten(doc.right)] : doc._tag === "Empty" ? [] : [doc]

/** One argument or option: how it is written and what its command says of it. */
export interface Entry {
  readonly name: string
  readonly description: string
}

interface Sections {
  readonly description: ReadonlyArray<string>
  readonly arguments: ReadonlyArray<Entry>
  readonly options: ReadonlyArray<Entry>
}

/**
 * Each definition of @effect/cli's help is the value's type in a generic sentence ("An integer."),
 * then the description given to it, then the library's notes on optional, repeated and
 * environment-backed options ("This setting is optional."): the description alone is kept.
 */
const LIBRARY_NOTE = /^This (setting|option|argument) /

const entry = ([span, block]: readonly [Span.Span, HelpDoc.HelpDoc]): Entry => ({
  // "(-o, --output FILE)" → "-o, --output FILE"
  name: spanText(span).replace(/^\((.*)\)$/, "$1"),
  description: flatten(block)
    .slice(1)
    .flatMap((doc) => (doc._tag === "Paragraph" ? [spanText(doc.value)] : []))
    .filter((text) => !LIBRARY_NOTE.test(text))
    .join(" ")
})

const NO_BUILT_INS = CliConfig.make({ showBuiltIns: false })

/** The description, arguments and options of a command, from @effect/cli's help of it. */
export const sectionsOf = (command: AnyCommand): Sections => {
  const sections: { description: Array<string>; arguments: Array<Entry>; options: Array<Entry> } = {
    description: [],
    arguments: [],
    options: []
  }
  let heading = ""
  for (const doc of flatten(Command.getHelp(command, NO_BUILT_INS))) {
    if (doc._tag === "Header") heading = spanText(doc.value)
    else if (heading === "DESCRIPTION" && doc._tag === "Paragraph") sections.description.push(spanText(doc.value))
    else if (heading === "ARGUMENTS" && doc._tag === "DescriptionList") sections.arguments.push(...doc.definitions.map(entry))
    else if (heading === "OPTIONS" && doc._tag === "DescriptionList") sections.options.push(...doc.definitions.map(entry))
  }
  return sections
}

const USAGE_CONFIG = CliConfig.make({ showAllNames: false })

/** The usage of a command after its name: `[--json] [--url URL] <CALL_ID>`, one item each. */
const usageItems = (command: AnyCommand): ReadonlyArray<string> => {
  const leaves = (usage: Usage.Usage): ReadonlyArray<Usage.Usage> =>
    usage._tag === "Concat" ? [...leaves(usage.left), ...leaves(usage.right)] : [usage]
  return leaves(Command.getUsage(command))
    .slice(1) // the command's name
    .map((usage) => Usage.enumerate(usage, USAGE_CONFIG).map(spanText).join(" | "))
    .filter((text) => text !== "")
}

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

const bold = (text: string) => `\x1b[1m${text}\x1b[22m`

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
export const wrap = (text: string, width: number): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === "" ? word : `${line} ${word}`
  }
  if (line !== "") lines.push(line)
  return lines
}

/** Items after `lead`, continued under the first item when the line is full. */
const wrapItems = (lead: string, items: ReadonlyArray<string>, width: number): ReadonlyArray<string> => {
  const indent = " ".repeat(lead.length + 1 <= 40 ? lead.length + 1 : 6)
  const lines: Array<string> = []
  let line = lead
  let itemsOnLine = 0
  for (const item of items) {
    if (itemsOnLine > 0 && line.length + 1 + item.length > width) {
      lines.push(line)
      line = `${indent}${item}`
      itemsOnLine = 1
    } else {
      line = `${line} ${item}`
      itemsOnLine += 1
    }
  }
  lines.push(line)
  return lines
}

/** Two columns: each name, and what it does wrapped beside it (under it when the name is long). */
const definitions = (entries: ReadonlyArray<Entry>): ReadonlyArray<string> => {
  const MAX_NAME = 24
  const column = 2 + Math.min(MAX_NAME, Math.max(0, ...entries.map((e) => e.name.length))) + 2
  return entries.flatMap(({ description, name }) => {
    const text = wrap(description, WIDTH - column).map((line) => `${" ".repeat(column)}${line}`)
    const head = `  ${name}`
    if (head.length + 2 > column || text.length === 0) return [head, ...text]
    return [`${head.padEnd(column)}${text[0]!.slice(column)}`, ...text.slice(1)]
  })
}

const section = (title: string, lines: ReadonlyArray<string>) => (lines.length === 0 ? [] : ["", bold(title), ...lines])

/** The options @effect/cli adds to every command that the root page lists (the others are left unsaid). */
const GLOBAL_OPTIONS: ReadonlyArray<Entry> = [
  { name: "-h, --help", description: "Show this help; after a command, the help of that command" },
  { name: "--version", description: "Print the version of callsight and exit" },
  { name: "--completions SHELL", description: "Print a completion script for sh, bash, fish or zsh" }
]

/** What the root page says of every command. */
const ROOT_NOTES = [
  "The client commands read CALLSIGHT_URL, CALLSIGHT_API_KEY and CALLSIGHT_ADMIN_KEY when --url, " +
  "--api-key and --admin-key are not given.",
  "Exit codes: 0 success, 1 the analysis failed, 2 usage error, 3 service error."
]

/** Every command under `node`, named from it (`admin create-tenant`), with its description. */
const commandList = (node: CommandTree): ReadonlyArray<Entry> =>
  node.subcommands.flatMap((child) =>
    child.subcommands.length === 0
      ? [{ name: child.name, description: sectionsOf(child.command).description.join(" ") }]
      : commandList(child).map((e) => ({ ...e, name: `${child.name} ${e.name}` }))
  )

/**
 * The help page of the last command of `path` (the root first), at most `WIDTH` characters a line.
 */
export const helpPage = (path: ReadonlyArray<CommandTree>, version: string): string => {
  const node = path[path.length - 1]!
  const words = path.map((c) => c.name).join(" ")
  const sections = sectionsOf(node.command)
  const isRoot = path.length === 1
  const lines = [
    bold(isRoot ? `${words} ${version}` : words),
    ...sections.description.flatMap((p) => ["", ...wrap(p, WIDTH)])
  ]
  if (node.subcommands.length > 0) {
    lines.push(
      ...section("USAGE", [`  ${words} COMMAND ...`]),
      ...section("COMMANDS", definitions(commandList(node))),
      ...(isRoot ? section("GLOBAL OPTIONS", definitions(GLOBAL_OPTIONS)) : []),
      "",
      ...wrap(`Run \`${words} COMMAND --help\` for the arguments and options of a command.`, WIDTH),
      ...(isRoot ? ROOT_NOTES.flatMap((note) => wrap(note, WIDTH)) : [])
    )
  } else {
    lines.push(
      ...section("USAGE", wrapItems(`  ${words}`, usageItems(node.command), WIDTH)),
      ...section("ARGUMENTS", definitions(sections.arguments)),
      ...section("OPTIONS", definitions(sections.options))
    )
  }
  return lines.join("\n")
}
