/** `callsight openapi [-o FILE]`: the OpenAPI 3.1 document of the declaration, without a server. */
import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Option } from "effect"
import { UsageError } from "./Errors.js"

export const openapi = Command.make(
  "openapi",
  {
    output: Options.text("output").pipe(
      Options.withPseudoName("FILE"),
      Options.withAlias("o"),
      Options.optional,
      Options.withDescription("Write the document to FILE instead of stdout")
    )
  },
  ({ output }) =>
    Effect.gen(function* () {
      // the whole declaration, loaded here: the other commands start without it
      const text = (yield* Effect.promise(() => import("./Whole.js"))).openApiText()
      if (Option.isNone(output)) return yield* Console.log(text.trimEnd())
      const fs = yield* FileSystem.FileSystem
      yield* fs.writeFileString(output.value, text).pipe(
        Effect.mapError((e) => new UsageError({ message: `cannot write ${output.value}: ${e.message}` }))
      )
      yield* Console.error(`Wrote the OpenAPI document to ${output.value}`)
    })
).pipe(Command.withDescription("Print (or write with -o) the OpenAPI 3.1 document of the API; needs no server"))
