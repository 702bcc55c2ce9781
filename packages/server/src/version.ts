/** The service version, reported by `/health` and `callsight --version`: the api-spec's, one for every package. */
export { VERSION } from "@callsight/api-spec"
