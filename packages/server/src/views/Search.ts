/**
 * Workspace search (spec 4.8 `GET /search`): full-text search over the tenant's calls (transcripts
 * and metadata), closers, outcome notes and manual-audit notes, in web-search syntax, best rank
 * first (of a word in more than `RANKED` transcripts, the newest `RANKED` transcript hits ranked,
 * the older ones after every ranked hit, newest first: `SearchRepo.ts`), each hit with an HTML-safe
 * snippet and, for transcripts, the second it is at.
 *
 * Whose hits (issue 36): the caller passes its `Sees`. A rep's hits are their own calls and what
 * is about them (outcome and manual-audit notes of those calls, their own closer row, never a
 * colleague's); a member who is no closer finds nothing; managers, keys (MCP) and the assistant
 * pass `TEAM`. The filter is in the statement, so `total` counts the hits the caller may see, and
 * pages (`offset`) are pages of those hits only.
 */
import type { ClientId, SearchResults, Sees } from "@callsight/api-spec"
import { Effect } from "effect"
import { SearchRepo } from "./SearchRepo.js"

export class Search extends Effect.Service<Search>()("Search", {
  dependencies: [SearchRepo.Default],
  effect: Effect.gen(function* () {
    const repo = yield* SearchRepo

    /** A page of the hits (`offset`: 0 when not given), and how many there are in all. */
    const search = (clientId: ClientId, sees: Sees, params: { readonly q: string; readonly limit: number; readonly offset?: number | undefined }) =>
      Effect.gen(function* () {
        const q = params.q.trim()
        const offset = params.offset ?? 0
        const rows = yield* repo.search(clientId, sees, q, { limit: params.limit, offset })
        // every row carries the total; a page past the last has none, so it is counted apart
        const total = rows[0]?.total ?? (offset > 0 ? yield* repo.count(clientId, sees, q) : 0)
        return {
          q,
          total,
          results: rows.map((r) => ({
            kind: r.kind,
            id: r.id,
            call_id: r.call_id,
            title: r.title,
            snippet: r.snippet,
            rank: r.rank,
            at: r.at,
            start: r.start
          }))
        } satisfies typeof SearchResults.Type
      }).pipe(Effect.withSpan("Search.search", { attributes: { limit: params.limit, offset: params.offset ?? 0 } }))

    return { search } as const
  })
}) {}
