import { useEffect, useState } from 'react'
import { useIdle } from '../../../lib/use-idle.ts'
import { useChangelog } from '../api/get-changelog.ts'

const seenKey = (email: string) => `portal.whats-new.seen.${email}`

/**
 * The what's-new dialog opens by itself once after a new release appears in the changelog (spec
 * section 2). The newest version a client has been shown is remembered per e-mail in this browser;
 * the first visit only remembers it (a new client gets the onboarding tour, not release notes).
 * The changelog is asked for once the page has drawn and the browser is idle: its request and the
 * render its answer causes stayed off the dashboard's first paint (Lighthouse counted both in it).
 */
export function useWhatsNewOnRelease(email: string | undefined): [boolean, () => void] {
  const idle = useIdle()
  const changelog = useChangelog(!!email && idle)
  const newest = changelog.data?.entries[0]?.version
  const [opened, setOpened] = useState(false)
  useEffect(() => {
    if (!email || !newest) return
    const seen = localStorage.getItem(seenKey(email))
    if (seen !== newest) localStorage.setItem(seenKey(email), newest)
    if (seen !== null && seen !== newest) setOpened(true)
  }, [email, newest])
  return [opened, () => setOpened(false)]
}
