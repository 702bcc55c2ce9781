/** The version of the analysis method, recorded with every call and printed in its report. */
export const METHOD_VERSION = "callsight-acoustic-1.0"
