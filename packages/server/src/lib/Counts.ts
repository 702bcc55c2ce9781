/** Counts of rows grouped by a status, as a record over every status (0 for those no row has). */
export const byStatus = <K extends string>(keys: ReadonlyArray<K>, rows: ReadonlyArray<{ readonly status: string; readonly n: number }>) =>
  Object.fromEntries(keys.map((k) => [k, rows.find((r) => r.status === k)?.n ?? 0])) as Record<K, number>
