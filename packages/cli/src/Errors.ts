/**
 * How `callsight` fails: every failure is reported once on stderr and mapped to an exit code.
 * 0 success, 1 analysis failed, 2 usage error, 3 service error.
 */
import { toCallsightError, type CallsightError } from "@callsight/client"
import { ValidationError } from "@effect/cli"
import { Cause, Console, Data, Effect, Exit, Option } from "effect"

export const ExitCode = {
  Success: 0,
  /** The analysis the command waited for, or looked at, ended `failed`. */
  AnalysisFailed: 1,
  Usage: 2,
  Service: 3
} as const

/** The command line is wrong: a missing key, a bad URL, a value the service rejected (422). */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/** The analysis ended `failed` (the command has printed what it has to print already). */
export class AnalysisFailed extends Data.TaggedError("AnalysisFailed")<{ readonly message: string }> {}

/** The service failed or could not be reached. */
export class ServiceError extends Data.TaggedError("ServiceError")<{
  readonly message: string
  readonly status?: number | undefined
}> {}

/** What a client call failed with, in the CLI's terms: 422 is the caller's mistake, the rest the service's. */
export const fromClientError = (error: unknown): Effect.Effect<never, UsageError | ServiceError> =>
  Effect.flatMap(toCallsightError(error), (e) => Effect.fail(classify(e)))

const classify = (e: CallsightError): UsageError | ServiceError => {
  if (e.tag === "ValidationFailed") return new UsageError({ message: `the service rejected the request (422): ${details(e)}` })
  if (e.tag === "UnsupportedMediaType") return new UsageError({ message: `the service refused the file (415)${reason(e)}` })
  if (e.tag === "MissingApiKey") return new UsageError({ message: e.message })
  if (e.tag === "TransportError") return new ServiceError({ message: `could not reach the service: ${e.message}` })
  // the file to upload cannot be read: the command line names a wrong file
  if (e.tag === "AudioSourceError") return new UsageError({ message: e.message.replace(/^AudioSourceError: /, "") })
  if (e.tag === "WaitTimeout") return new ServiceError({ message: e.message.replace(/^WaitTimeout: /, "") })
  const status = e.status === undefined ? "" : `${e.status} `
  return new ServiceError({ message: `${status}${e.tag}${reason(e)}`, status: e.status })
}

/**
 * What an upload failed with: a file the service refuses as not audio (415) or as empty or
 * invalid (422 on its `audio` field) is the caller's input, a usage error naming the file.
 */
export const fromUploadError = (file: string) => (error: unknown): Effect.Effect<never, UsageError | ServiceError> =>
  Effect.flatMap(toCallsightError(error), (e) => {
    const onAudio = detailsOf(e).filter((d) => d.loc?.at(-1) === "audio")
    if (e.tag === "UnsupportedMediaType" || (e.tag === "ValidationFailed" && onAudio.length > 0)) {
      const why = e.tag === "UnsupportedMediaType" ? reason(e).replace(/^: /, "") : onAudio.map((d) => String(d.msg)).join("; ")
      return Effect.fail(new UsageError({ message: `the service refused ${file}: ${why} (${e.status ?? e.tag})` }))
    }
    return Effect.fail(classify(e))
  })

const reason = (e: CallsightError): string => {
  const body = e.body as { message?: unknown } | undefined
  if (body && typeof body.message === "string") return `: ${body.message}`
  const text = e.message.startsWith(e.tag) ? e.message.slice(e.tag.length) : `: ${e.message}`
  return text
}

type Detail = { readonly loc?: ReadonlyArray<unknown>; readonly msg?: unknown }

const detailsOf = (e: CallsightError): ReadonlyArray<Detail> => {
  const detail = (e.body as { detail?: ReadonlyArray<Detail> } | undefined)?.detail
  return Array.isArray(detail) ? detail : []
}

const details = (e: CallsightError): string => {
  const detail = detailsOf(e)
  return detail.length > 0
    ? detail.map((d) => `${(d.loc ?? []).join(".")}: ${String(d.msg)}`).join("; ")
    : e.message
}

/**
 * Reports a failure of the whole program on stderr (the command-line parser has already printed
 * its own) and gives its exit code.
 */
export const report = (error: unknown): Effect.Effect<number> => {
  if (ValidationError.isValidationError(error)) return Effect.succeed(ExitCode.Usage)
  if (error instanceof UsageError) return Effect.as(Console.error(`callsight: ${error.message}`), ExitCode.Usage)
  if (error instanceof AnalysisFailed) {
    return Effect.as(Console.error(`callsight: ${error.message}`), ExitCode.AnalysisFailed)
  }
  if (error instanceof ServiceError) return Effect.as(Console.error(`callsight: ${error.message}`), ExitCode.Service)
  return Effect.as(
    Console.error(`callsight: unexpected failure: ${error instanceof Error ? error.message : String(error)}`),
    ExitCode.Service
  )
}

/** Runs the program to an exit code: failures are reported, defects are printed with their cause. */
export const toExitCode = <R>(program: Effect.Effect<void, unknown, R>): Effect.Effect<number, never, R> =>
  program.pipe(
    Effect.as(ExitCode.Success as number),
    Effect.catchAll(report),
    Effect.catchAllDefect((defect) =>
      Effect.as(Console.error(`callsight: internal error: ${Cause.pretty(Cause.die(defect))}`), ExitCode.Service)
    )
  )

/** The exit code of a run: the one the program computed; 0 after SIGINT/SIGTERM. */
export const exitCodeOf = <E, A>(exit: Exit.Exit<E, A>): number => {
  if (Exit.isSuccess(exit)) return typeof exit.value === "number" ? exit.value : ExitCode.Success
  if (Cause.isInterruptedOnly(exit.cause)) return ExitCode.Success
  const failure = Cause.failureOption(exit.cause)
  return Option.isSome(failure) && ValidationError.isValidationError(failure.value) ? ExitCode.Usage : ExitCode.Service
}

/**
 * `NodeRuntime.runMain` teardown: the process ends with the run's exit code as soon as stdout and
 * stderr have taken what was written (an empty write's callback comes after the earlier writes'),
 * not when the last handle closes. `runMain` leaves a successful run to the event loop, which
 * kept a client command alive for an idle keep-alive connection after its answer was printed.
 */
export const teardown = <E, A>(exit: Exit.Exit<E, A>, _onExit: (code: number) => void): void => {
  const code = exitCodeOf(exit)
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)))
}
