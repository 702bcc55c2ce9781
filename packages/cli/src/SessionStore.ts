/**
 * Where `callsight verify` keeps portal sessions for later commands: `session.json` in the user's
 * config directory (`$CALLSIGHT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/callsight`, else
 * `%APPDATA%\callsight` on Windows, else `~/.config/callsight`), one session per service URL.
 * The file is written with mode 0600 in a directory of mode 0700: the session is a credential.
 */
import { FileSystem, Path } from "@effect/platform"
import { Config, Effect, Option, Schema } from "effect"
import { homedir } from "node:os"

export const StoredSession = Schema.Struct({
  session: Schema.String,
  email: Schema.String,
  user_id: Schema.String,
  client_id: Schema.String,
  expires_at: Schema.String,
  saved_at: Schema.String
})
export type StoredSession = typeof StoredSession.Type

const SessionFile = Schema.parseJson(Schema.Struct({ sessions: Schema.Record({ key: Schema.String, value: StoredSession }) }))

/** The directory of the CLI's own files. */
export const configDir = Effect.gen(function* () {
  const path = yield* Path.Path
  const explicit = yield* Config.option(Config.string("CALLSIGHT_CONFIG_DIR"))
  if (Option.isSome(explicit)) return explicit.value
  const xdg = yield* Config.option(Config.string("XDG_CONFIG_HOME"))
  if (Option.isSome(xdg)) return path.join(xdg.value, "callsight")
  const appData = yield* Config.option(Config.string("APPDATA"))
  if (process.platform === "win32" && Option.isSome(appData)) return path.join(appData.value, "callsight")
  return path.join(homedir(), ".config", "callsight")
}).pipe(Effect.orDie)

export const sessionFile = Effect.flatMap(configDir, (dir) => Effect.map(Path.Path, (path) => path.join(dir, "session.json")))

/** Every stored session by service URL; none when the file is missing or unreadable. */
const readAll = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const file = yield* sessionFile
  const text = yield* fs.readFileString(file).pipe(Effect.orElseSucceed(() => ""))
  if (text === "") return {} as Record<string, StoredSession>
  return yield* Schema.decode(SessionFile)(text).pipe(
    Effect.map((parsed) => ({ ...parsed.sessions })),
    Effect.orElseSucceed(() => ({}) as Record<string, StoredSession>)
  )
})

const writeAll = (sessions: Record<string, StoredSession>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const dir = yield* configDir
    const file = yield* sessionFile
    yield* fs.makeDirectory(dir, { recursive: true, mode: 0o700 })
    yield* fs.writeFileString(file, `${JSON.stringify({ sessions }, null, 2)}\n`, { mode: 0o600 })
    // the mode of a file that existed before is kept by writeFile: set it again
    yield* fs.chmod(file, 0o600)
    return file
  })

/** The session stored for the service at `url`. */
export const loadSession = (url: string) => Effect.map(readAll, (all) => Option.fromNullable(all[url]))

/** Stores the session of the service at `url`; answers the file's path. */
export const saveSession = (url: string, session: StoredSession) =>
  Effect.flatMap(readAll, (all) => writeAll({ ...all, [url]: session }))

/** Forgets the session of the service at `url`. */
export const forgetSession = (url: string) =>
  Effect.flatMap(readAll, (all) => {
    const { [url]: _, ...rest } = all
    return writeAll(rest)
  })
