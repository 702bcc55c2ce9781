/**
 * Runtime flags per tenant (`/v1/internal/admin/settings/runtime-flags`). The object is kept as
 * saved, unknown keys included; the keys the service reads are validated and documented here.
 */
import { type ClientId, NotFound, ValidationFailed } from "@callsight/api-spec"
import { Effect, Option, Schema } from "effect"
import { RuntimeFlagsRepo } from "./RuntimeFlagsRepo.js"
import { TenantsRepo } from "./TenantsRepo.js"

/** The flags the service reads, with the schema a value must satisfy. */
export const KNOWN_FLAGS = [
  {
    key: "transcriber",
    type: "string" as const,
    default: null,
    description: "Speech-to-text provider for this tenant's calls (none, deepgram, assemblyai, openai); wins over TRANSCRIBER",
    schema: Schema.Literal("none", "deepgram", "assemblyai", "openai")
  },
  {
    key: "report.include_transcript",
    type: "boolean" as const,
    default: true,
    description: "Whether the HTML report shows the transcript",
    schema: Schema.Boolean
  },
  {
    key: "companion.enabled",
    type: "boolean" as const,
    default: true,
    description: "Whether the messaging companion answers this tenant's chats",
    schema: Schema.Boolean
  },
  {
    key: "assistant.enabled",
    type: "boolean" as const,
    default: true,
    description: "Whether the assistant component answers this tenant's workspace briefs (meeting prep, deal intelligence, team health); null when false",
    schema: Schema.Boolean
  }
]

type Flags = Readonly<Record<string, unknown>>

const view = (clientId: ClientId, flags: Flags, updatedAt: string | null) => ({
  client_id: clientId,
  flags,
  unknown_keys: Object.keys(flags).filter((key) => !KNOWN_FLAGS.some((f) => f.key === key)),
  updated_at: updatedAt
})

export class RuntimeFlags extends Effect.Service<RuntimeFlags>()("RuntimeFlags", {
  effect: Effect.gen(function* () {
    const repo = yield* RuntimeFlagsRepo
    const tenants = yield* TenantsRepo

    /** The flags of one tenant, `{}` when none were saved. */
    const forTenant = (clientId: ClientId) =>
      Effect.map(Effect.orDie(repo.find(clientId)), Option.match({ onNone: (): Flags => ({}), onSome: (row) => row.flags }))

    const list = Effect.fn("RuntimeFlags.list")(function* (clientId: ClientId | undefined) {
      const known_flags = KNOWN_FLAGS.map(({ schema: _, ...flag }) => flag)
      if (clientId === undefined) {
        const rows = yield* Effect.orDie(repo.list)
        return { known_flags, tenants: rows.map((r) => view(r.client_id, r.flags, r.updated_at)) }
      }
      if (!(yield* Effect.orDie(tenants.exists(clientId)))) return yield* new NotFound({ message: `no client ${clientId}` })
      const row = Option.getOrNull(yield* Effect.orDie(repo.find(clientId)))
      return { known_flags, tenants: [view(clientId, row?.flags ?? {}, row?.updated_at ?? null)] }
    })

    const replace = Effect.fn("RuntimeFlags.replace")(function* (clientId: ClientId, flags: Flags) {
      const detail = KNOWN_FLAGS.flatMap((flag) =>
        flag.key in flags && !Schema.is(flag.schema as Schema.Schema<unknown>)(flags[flag.key])
          ? [{ loc: ["body", flag.key], msg: `must be ${flag.type === "string" ? "one of none, deepgram, assemblyai, openai" : `a ${flag.type}`}`, type: "value_error" }]
          : []
      )
      if (detail.length > 0) return yield* new ValidationFailed({ detail })
      if (!(yield* Effect.orDie(tenants.exists(clientId)))) return yield* new NotFound({ message: `no client ${clientId}` })
      const row = yield* Effect.orDie(repo.save({ clientId, flags }))
      return view(clientId, row.flags, row.updated_at)
    })

    return { list, replace, forTenant } as const
  }),
  dependencies: [RuntimeFlagsRepo.Default, TenantsRepo.Default]
}) {}
