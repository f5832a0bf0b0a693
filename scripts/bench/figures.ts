// The figures `npm run bench` reports: the keys of bench-results.json with their targets, and the
// arithmetic over samples.

/** Every key of bench-results.json, in the order of the table, with its target and unit. */
export const FIGURES = {
  push_to_dom_p50: { target: '', unit: 'ms' },
  push_to_dom_p99: { target: '≤ 5', unit: 'ms' },
  raw_faye_p50: { target: 'the floor', unit: 'ms' },
  raw_faye_p99: { target: 'the floor', unit: 'ms' },
  hop_service_to_main_p99: { target: '', unit: 'ms' },
  hop_main_to_renderer_p99: { target: '', unit: 'ms' },
  hop_renderer_to_dom_p99: { target: '', unit: 'ms' },
  send_to_other_dom_p50: { target: '', unit: 'ms' },
  send_to_other_dom_p99: { target: '≤ 15', unit: 'ms' },
  cold_start_100_ms: { target: '≤ 1000', unit: 'ms' },
  cold_start_cached_100_ms: { target: '≤ 400', unit: 'ms' },
  open_stored_10k_ms: { target: '≤ 50', unit: 'ms' },
  backfill_msgs_per_s: { target: '≥ 0.8 × MS1', unit: 'msg/s' },
  push_to_dom_p99_during_backfill: { target: '≤ 1.2 ×', unit: 'ms' },
  store_bytes_per_message: { target: 'report', unit: 'B' },
  open_10k_ms: { target: '≤ 100', unit: 'ms' },
  scroll_10k_long_frames: { target: '0', unit: 'frames' },
  scroll_10k_long_frames_cpu4x: { target: '0', unit: 'frames' },
  dom_rows_max: { target: '≤ 250', unit: 'rows' },
  heap_mb_100x1000: { target: '≤ 60', unit: 'MB' },
  main_rss_mb_100x1000: { target: '≤ 150', unit: 'MB' },
  export_100k_html_s: { target: '≤ 10', unit: 's' },
  search_typing_long_frames: { target: '0', unit: 'frames' },
  search_1m_p50_ms: { target: '', unit: 'ms' },
  search_1m_p95_ms: { target: '≤ 30', unit: 'ms' },
  store_index_build_1m_s: { target: 'report', unit: 's' }
} as const

export type FigureKey = keyof typeof FIGURES
export type Figures = Partial<Record<FigureKey, number>>

/** What each part adds: its figures, and per figure the floor or baseline it is read against. */
export interface PartResult {
  figures: Figures
  baselines: Partial<Record<FigureKey, string>>
}

/** The nearest-rank percentile (`p` in 0–100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1] as number
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50)
}

/** `p50 / p99 / max (n)` of samples in ms, for the detail lines. */
export function distribution(samples: readonly number[]): string {
  const ms = (value: number): string => value.toFixed(2)
  return `p50 ${ms(percentile(samples, 50))}  p90 ${ms(percentile(samples, 90))}  p99 ${ms(percentile(samples, 99))}  max ${ms(Math.max(...samples))}  min ${ms(Math.min(...samples))}  (n = ${samples.length})`
}

/** Rounded for the file and the table: two decimals below 10, one below 1000, none above. */
export function rounded(value: number): number {
  const decimals = Math.abs(value) < 10 ? 2 : Math.abs(value) < 1000 ? 1 : 0
  return Number(value.toFixed(decimals))
}
