/** The `callsight` command tree, for embedding and tests; `main.ts` is the executable. */
export { callsight, run } from "./Cli.js"
export { ExitCode, ServiceError, UsageError } from "./Errors.js"
export { colourOn, stripAnsi } from "./Output.js"
