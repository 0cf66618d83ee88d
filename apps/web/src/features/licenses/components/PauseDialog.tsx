import { Button, Group, List, Modal, Text } from '@mantine/core'

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
  const what = trial ? 'trial' : 'subscription'
  return (
    <Modal opened={opened} onClose={onCancel} title={`Pause this ${what}?`} centered>
      <Text mb="xs">While it is paused:</Text>
      <List mb="lg" spacing={4}>
        <List.Item>{service} runs no transactions for it.</List.Item>
        <List.Item>
          <strong>Its data is erased 30 days after pausing</strong> unless you resume it before then; erased data cannot be restored.
        </List.Item>
        {endsOn && (
          <List.Item>
            The {what} still ends on {endsOn}.
          </List.Item>
        )}
      </List>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          Keep it running
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          Pause the {what}
        </Button>
      </Group>
    </Modal>
  )
}
