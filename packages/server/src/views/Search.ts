/**
 * Workspace search (spec 4.8 `GET /search`): full-text search over the tenant's calls (transcripts
 * and metadata), closers, outcome notes and manual-audit notes, in web-search syntax, best rank
 * first, each hit with an HTML-safe snippet and, for transcripts, the second it is at.
 *
 * Whose hits (issue 36): the caller passes its `Sees`. A rep's hits are their own calls and what
 * is about them (outcome and manual-audit notes of those calls, their own closer row, never a
 * colleague's); a member who is no closer finds nothing; managers, keys (MCP) and the assistant
 * pass `TEAM`. The filter is in the statement, so `total` counts the hits the caller may see.
 */
import type { ClientId, SearchResults, Sees } from "@callsight/api-spec"
import { Effect } from "effect"
import { SearchRepo } from "./SearchRepo.js"

export class Search extends Effect.Service<Search>()("Search", {
  dependencies: [SearchRepo.Default],
  effect: Effect.gen(function* () {
    const repo = yield* SearchRepo

    const search = (clientId: ClientId, sees: Sees, params: { readonly q: string; readonly limit: number }) =>
      Effect.gen(function* () {
        const q = params.q.trim()
        const rows = yield* repo.search(clientId, sees, q, params.limit)
        return {
          q,
          total: rows[0]?.total ?? 0,
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
      }).pipe(Effect.withSpan("Search.search", { attributes: { limit: params.limit } }))

    return { search } as const
  })
}) {}
