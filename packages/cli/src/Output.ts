/**
 * What `callsight` writes through the `Console` service (the command-line parser's help and errors
 * included): ANSI colours only on a terminal, never with `NO_COLOR` set (https://no-color.org),
 * and the parser's own error messages ("Missing argument <FILE>", "Expected path 'x' to be a
 * regular file") with the `callsight:` prefix every other error has.
 */
import { Console, Context, Effect } from "effect"

/** ANSI escape sequences (colours, styles). */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g

export const stripAnsi = (text: string): string => text.replace(ANSI, "")

/** Whether to colour what goes to `stream`: a terminal, and `NO_COLOR` unset or empty. */
export const colourOn = (stream: { readonly isTTY?: boolean | undefined }, env: NodeJS.ProcessEnv = process.env): boolean =>
  stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "")

type Args = ReadonlyArray<unknown>

const plain = (args: Args): Args => args.map((a) => (typeof a === "string" ? stripAnsi(a) : a))

const prefixed = (args: Args): Args =>
  typeof args[0] === "string" ? [`callsight: ${args[0].trimEnd()}`, ...args.slice(1)] : args

/**
 * `base` with colours removed from what goes to a stream that is not coloured; with
 * `prefixErrors`, `error` writes the prefix first (for the parser's messages: the commands'
 * own errors carry it already).
 */
export const outputConsole = (base: Console.Console, options: { readonly prefixErrors: boolean }): Console.Console => {
  const out = colourOn(process.stdout) ? (args: Args) => args : plain
  const err = colourOn(process.stderr) ? (args: Args) => args : plain
  const error = options.prefixErrors ? (args: Args) => prefixed(err(args)) : err
  return {
    ...base,
    log: (...args) => base.log(...out(args)),
    info: (...args) => base.info(...out(args)),
    error: (...args) => base.error(...error(args)),
    warn: (...args) => base.warn(...err(args))
  }
}

/**
 * Runs the command line with these consoles: `parse` for what the parser prints (help, its
 * errors), `handlers` inside the commands' handlers (`Command.transformHandler`).
 */
export const withOutput = <A, E, R>(
  program: (consoles: { readonly handlers: Console.Console }) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.consoleWith((base) =>
    Effect.withConsole(
      program({ handlers: outputConsole(base, { prefixErrors: false }) }),
      outputConsole(base, { prefixErrors: true })
    )
  )

/** `--json`: the value as indented JSON on stdout, the only thing there. */
export const printJson = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

/** A stream a command writes text to as it is (not through the `Console`). */
export interface RawStream {
  readonly isTTY?: boolean | undefined
  /** Writes `text`; `done` once it is handed to the system. */
  readonly write: (text: string, done?: () => void) => unknown
}

/**
 * Where a command writes text as it is: a report's HTML on stdout, the stage and the progress bar
 * on stderr. The process's streams unless a caller provides others (the tests that run the
 * command in their own process keep each run's output apart so).
 */
export class Stdio extends Context.Reference<Stdio>()("@callsight/cli/Stdio", {
  defaultValue: (): { readonly stdout: RawStream; readonly stderr: RawStream } => ({
    stdout: process.stdout,
    stderr: process.stderr
  })
}) {}
