import { Suspense, useState, type ReactNode } from 'react'
import { Center, Loader, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'

/**
 * A dialog whose code loads when it is first wanted (React.lazy inside): nothing of it is fetched
 * until `open` is first true, and from then on it stays mounted, so it closes with its transition and
 * opens at once the next time. While the code loads a spinner says so.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(open)
  if (open && !wanted) setWanted(true)
  return wanted ? <Suspense fallback={<DialogLoading />}>{children}</Suspense> : null
}

function DialogLoading() {
  const { t } = useTranslation()
  return (
    <Center pos="fixed" inset={0} style={{ zIndex: 300 }} role="status" aria-live="polite">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{t('Loading…')}</VisuallyHidden>
    </Center>
  )
}
