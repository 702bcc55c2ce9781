/** The version of the analysis method, recorded with every call and printed in its report. */
export const METHOD_VERSION = "callsight-1.1"
