import { lazy, useState } from 'react'
import { Button } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { OnceOpened } from '../../../components/OnceOpened.tsx'

const FeedbackDialog = lazy(() => import('./FeedbackDialog.tsx').then((m) => ({ default: m.FeedbackDialog })))

/**
 * The feedback button of every signed-in screen (spec sections 2, 3, 5), a button in the shell's
 * header, where it covers nothing at any width, and the dialog (FeedbackDialog.tsx) whose code loads
 * when it first opens.
 */
export function FeedbackButton() {
  const { t } = useTranslation()
  const [opened, setOpened] = useState(false)
  return (
    <>
      <Button variant="light" size="compact-sm" onClick={() => setOpened(true)} aria-haspopup="dialog">
        {t('Feedback')}
      </Button>
      <OnceOpened open={opened}>
        <FeedbackDialog opened={opened} onClose={() => setOpened(false)} />
      </OnceOpened>
    </>
  )
}
