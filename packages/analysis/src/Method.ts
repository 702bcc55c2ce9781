/**
 * The version of the analysis method, recorded with every call and printed in its report. Every
 * change to a rule, a threshold, a word list or what is scored changes it; stored calls keep the
 * version they were analysed with. The changelog is in docs/method.md ("Method versions").
 */
export const METHOD_VERSION = "callsight-1.26"
