/**
 * The software's version (`/health`'s `version`, `callsight --version`) and the interface's
 * (`API_VERSION`: `/health`'s `api_version`, the OpenAPI `info.version`): the api-spec's, one of
 * each for every package (docs/architecture.md, "Versions").
 */
export { API_VERSION, VERSION, VERSIONS_LINE } from "@callsight/api-spec"
