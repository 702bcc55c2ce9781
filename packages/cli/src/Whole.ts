/**
 * What only `openapi` and `mcp` use: the whole declaration (the OpenAPI document) and the
 * schemas of the tools `mcp` forwards to the service. Those commands import this module when they
 * run, so that every other command starts without loading them (each derives its client from its
 * own groups, Connection.ts).
 */
export { openApiText, OutcomeTruth, OutcomeTruthRequest, SearchResults, TrackerReport, Trends } from "@callsight/api-spec"
