/** The `callsight` command tree, for embedding and tests; `main.ts` is the executable. */
export { callsight, callsightTree, run } from "./Cli.js"
export { ExitCode, ServiceError, toExitCode, UsageError } from "./Errors.js"
export { allCommands, type CommandTree, sectionsOf, WIDTH as HELP_WIDTH } from "./Help.js"
export { colourOn, type RawStream, Stdio, stripAnsi } from "./Output.js"
