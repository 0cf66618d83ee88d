/**
 * If-None-Match (RFC 9110 section 13.1.2): `*`, or a list of entity tags compared weakly, so `W/"x"`
 * matches `"x"`. Tags are read as quoted strings, so a comma inside a tag does not split it; text
 * that is not a tag is ignored.
 */
export interface IfNoneMatch {
  /** the header was `*`: any current answer matches */
  any: boolean
  /** the listed tags, each as its quoted opaque part (`W/` dropped) */
  tags: string[]
}

const TAG = /(?:W\/)?("[^"]*")/g

export function parseIfNoneMatch(header: string | undefined): IfNoneMatch {
  if (!header) return { any: false, tags: [] }
  if (header.trim() === '*') return { any: true, tags: [] }
  return { any: false, tags: Array.from(header.matchAll(TAG), (m) => m[1]!) }
}

/** If-None-Match against the one ETag of an answer, by the weak comparison. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  const held = parseIfNoneMatch(header)
  return held.any || held.tags.includes(etag.replace(/^W\//, ''))
}
