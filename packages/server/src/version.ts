/** The service version, reported by `/health` and `callsight --version`. */
export const VERSION = "0.1.0"
