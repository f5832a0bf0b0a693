// The one logging port every layer of main writes to: the hosts decide where lines go
// (`console-log.ts` for both of ours), and tests pass a recorder.
export interface Log {
  info(message: string, details?: unknown): void
  warn(message: string, details?: unknown): void
  error(message: string, details?: unknown): void
}
