import { Button, Group, List, Modal, Text } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'

/**
 * Pausing stops a cloud service and starts the 30-day erasure clock, so it asks first and says so.
 * Mantine's modal traps focus, closes on Escape and gives focus back to the Pause button; the safe
 * answer has the focus when it opens, so Enter alone never pauses.
 */
export function PauseDialog({
  opened,
  service,
  trial,
  endsOn,
  busy,
  onCancel,
  onConfirm,
}: {
  opened: boolean
  service: string
  trial: boolean
  endsOn: string | null
  busy: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  const { t } = useTranslation()
  return (
    <Modal opened={opened} onClose={onCancel} title={trial ? t('Pause this trial?') : t('Pause this subscription?')} centered>
      <Text mb="xs">{t('While it is paused:')}</Text>
      <List mb="lg" spacing={4}>
        <List.Item>{t('{{service}} runs no transactions for it.', { service })}</List.Item>
        <List.Item>
          <Trans
            defaults="<b>Its data is erased 30 days after pausing</b> unless you resume it before then; erased data cannot be restored."
            components={{ b: <strong /> }}
          />
        </List.Item>
        {endsOn && (
          <List.Item>
            {trial ? t('The trial still ends on {{date}}.', { date: endsOn }) : t('The subscription still ends on {{date}}.', { date: endsOn })}
          </List.Item>
        )}
      </List>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {t('Keep it running')}
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          {trial ? t('Pause the trial') : t('Pause the subscription')}
        </Button>
      </Group>
    </Modal>
  )
}
