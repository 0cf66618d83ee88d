import { useState } from 'react'
import { Button, Card, Group, Stepper, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useStartTrial } from '../../../api/license-mutations.ts'
import { notifySuccess } from '../../../lib/notify.ts'

/** A trial the first steps offer: the product and tag the server creates it with. */
export interface Trial {
  product: string
  tag: string | null
  /** The button's text as an i18next key, with its values. */
  label: string
  labelValues?: Record<string, unknown>
}

/** The onboarding first steps; the dashboard shows them while the client has no licenses and has not closed them. */
export function FirstSteps({ steps, trial, onHide }: { steps: readonly string[]; trial: Trial | undefined; onHide: () => void }) {
  const { t } = useTranslation()
  const startTrial = useStartTrial()
  const [starting, setStarting] = useState(false)
  const start = async () => {
    if (!trial) return
    setStarting(true)
    try {
      await startTrial.mutateAsync({ product: trial.product, tag: trial.tag })
      notifySuccess(t('Trial started'), t('Your trial license is in the table below.'))
    } catch {
      // the error modal has told the user
    } finally {
      setStarting(false)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="first-steps">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="first-steps">
          {t('First steps')}
        </Title>
        <Button variant="subtle" size="xs" onClick={onHide}>
          {t('Hide')}
        </Button>
      </Group>
      <Stepper active={0} size="sm" allowNextStepsSelect={false}>
        {steps.map((label) => (
          <Stepper.Step key={label} label={t(label)} />
        ))}
      </Stepper>
      <Group mt="md">
        {trial ? (
          <Button onClick={start} loading={starting}>
            {t(trial.label, trial.labelValues)}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {t('Face SDK licenses are issued by our sales team for now: contact support to get one.')}
          </Text>
        )}
      </Group>
    </Card>
  )
}
