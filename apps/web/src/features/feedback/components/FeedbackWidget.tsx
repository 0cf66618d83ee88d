import { lazy, useState } from 'react'
import { Affix, Button } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { OnceOpened } from '../../../components/OnceOpened.tsx'
import classes from './feedback.module.css'

const FeedbackDialog = lazy(() => import('./FeedbackDialog.tsx').then((m) => ({ default: m.FeedbackDialog })))

/**
 * The floating feedback widget of every signed-in screen (spec sections 2, 3, 5): the button, and
 * the dialog (FeedbackDialog.tsx) whose code loads when it first opens.
 */
export function FeedbackWidget() {
  const { t } = useTranslation()
  const [opened, setOpened] = useState(false)
  return (
    <>
      <Affix position={{ bottom: 20, right: 20 }} zIndex={150}>
        <Button radius="xl" size="sm" color="indigo" className={classes.trigger} onClick={() => setOpened(true)} aria-haspopup="dialog">
          {t('Feedback')}
        </Button>
      </Affix>
      <OnceOpened open={opened}>
        <FeedbackDialog opened={opened} onClose={() => setOpened(false)} />
      </OnceOpened>
    </>
  )
}
