// Message paging shared by group messages (MS1) and direct messages (C2), docs/protocol.md §10.
import type { QueryValue } from './service-client'

/** At most one anchor per request (§10). `before`/`since` pages are newest first, `after` oldest first. */
export type PageAnchor = { before: string } | { since: string } | { after: string }

export interface MessagePageRequest {
  anchor?: PageAnchor
  /** 1–100; the service's default is 20. */
  limit?: number
}

export function pageQuery(request: MessagePageRequest): Record<string, QueryValue> {
  const anchor = request.anchor
  return {
    before_id: anchor !== undefined && 'before' in anchor ? anchor.before : undefined,
    since_id: anchor !== undefined && 'since' in anchor ? anchor.since : undefined,
    after_id: anchor !== undefined && 'after' in anchor ? anchor.after : undefined,
    limit: request.limit
  }
}
