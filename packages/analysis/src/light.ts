/**
 * `@callsight/analysis/light`: the small pieces of the engine that the server uses outside an
 * analysis, loaded without the engine itself: what an upload's first bytes say its format is, the
 * scorecard's dimensions (labels, overall basis) and HTML escaping. They import nothing but
 * `@callsight/api-spec`'s schemas. The whole engine (`@callsight/analysis`: its models, lexicons,
 * NLP and audio decoding libraries, megabytes of code) is loaded by the server only when it analyses
 * a call or renders a report (packages/server/src/lib/AnalysisEngine.ts).
 */
export * from "./report/Html.js"
export * from "./scoring/Dimensions.js"
export * from "./signal/Sniff.js"
export * from "./text/Trackers.js"
