import { useState } from 'react'
import { Alert, Badge, Button, Card, Checkbox, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, webhookCreateBody, type WebhookDeliveryView, type WebhookEndpointView, type WebhookEvent } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'
import { formatDayTime } from '../../../lib/format.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useCreateWebhook } from '../api/create-webhook.ts'
import { useDeleteWebhook } from '../api/delete-webhook.ts'
import { useWebhookDeliveries } from '../api/webhook-deliveries.ts'
import { useWebhooks } from '../api/webhooks.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/** a badge in a table cell keeps its whole word (the cell does not squeeze it to an ellipsis) */
const BADGE_STYLES = { root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }
const EVENT_LABEL: Record<WebhookEvent, string> = {
  'license.expiring': 'A license is about to expire',
  'license.suspended': 'A license is suspended',
  'device.activated': 'A device is activated',
  'device.released': 'A device is released',
  'payment.failed': 'A payment fails',
}
const STATUS_COLOR: Record<WebhookDeliveryView['status'], string> = { pending: 'yellow', delivered: 'green', failed: 'red' }
const STATUS_LABEL: Record<WebhookDeliveryView['status'], string> = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' }

/**
 * The account's webhook endpoints (an address and the events it receives, each with its signing
 * secret) and the log of deliveries: status, attempts and the last response code.
 */
export function Webhooks() {
  const { t } = useTranslation()
  const endpoints = useWebhooks()
  const deliveries = useWebhookDeliveries()
  const create = useCreateWebhook()
  const remove = useDeleteWebhook()
  const [target, setTarget] = useState<WebhookEndpointView | null>(null)
  const form = useSchemaForm(webhookCreateBody, { url: '', events: [] as WebhookEvent[] })
  const submit = form.submit(async (body) => {
    await create.mutateAsync(body)
    form.reset()
  })
  const confirmRemove = async () => {
    if (!target) return
    try {
      await remove.mutateAsync(target.id)
    } catch {
      // the error dialog has told the user
    } finally {
      setTarget(null)
    }
  }
  const list = endpoints.data?.endpoints ?? []
  const log = deliveries.data?.deliveries ?? []
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="webhooks-title" data-testid="webhooks">
      <Title order={2} size="h4" id="webhooks-title" mb="xs">
        {t('Webhooks')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t(
          'The portal posts the events you choose to your address, signed with the endpoint’s secret in the Portal-Signature header. A failed delivery is tried again.',
        )}
      </Text>
      <form onSubmit={submit} noValidate aria-label={t('Add a webhook endpoint')}>
        <Stack gap="sm">
          <TextInput
            label={t('Endpoint URL')}
            placeholder={t('https://example.com/portal-events')}
            maxLength={WEBHOOK_URL_MAX + 1}
            inputMode="url"
            {...form.getInputProps('url')}
          />
          <Checkbox.Group label={t('Events')} {...form.getInputProps('events')}>
            <Group gap="md" mt={4}>
              {WEBHOOK_EVENTS.map((e) => (
                <Checkbox key={e} value={e} label={t(EVENT_LABEL[e])} />
              ))}
            </Group>
          </Checkbox.Group>
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              {t('Add endpoint')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Title order={3} size="h5" mt="lg" mb="xs">
        {t('Endpoints')}
      </Title>
      {endpoints.isPending ? (
        <Spinner label={t('Loading your endpoints')} size="sm" />
      ) : endpoints.isError ? (
        <Alert color="red" role="alert">
          {t('The endpoints could not be loaded.')}
        </Alert>
      ) : list.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('No endpoints yet.')}
        </Text>
      ) : (
        <Stack gap="sm">
          {list.map((e) => (
            <Card key={e.id} withBorder padding="sm" data-testid="webhook-endpoint">
              <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
                <Text fw={500} style={{ overflowWrap: 'anywhere', flex: '1 1 12rem', minWidth: 0 }}>
                  {e.url}
                </Text>
                <Button size="xs" variant="light" color="red" onClick={() => setTarget(e)} aria-label={t('Remove {{url}}', { url: e.url })}>
                  {t('Remove')}
                </Button>
              </Group>
              <Group gap={4} mt={6}>
                {e.events.map((ev) => (
                  <Badge key={ev} variant="light" size="sm" c="dark.8" style={{ textTransform: 'none' }}>
                    {ev}
                  </Badge>
                ))}
              </Group>
              <Group gap="xs" mt={6} wrap="wrap">
                <Text size="xs" c="dimmed">
                  {t('Signing secret')}
                </Text>
                <Code>{e.secret.slice(0, 12)}…</Code>
                <CopyButton value={e.secret}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" variant="subtle" onClick={copy}>
                      {copied ? t('Copied') : t('Copy secret')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <Title order={3} size="h5" mt="lg" mb="xs">
        {t('Recent deliveries')}
      </Title>
      {deliveries.isPending ? (
        <Spinner label={t('Loading the deliveries')} size="sm" />
      ) : log.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('Nothing has been sent yet.')}
        </Text>
      ) : (
        <CardTable minWidth={700}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Event')}</Table.Th>
              <Table.Th>{t('Endpoint')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th>{t('Attempts')}</Table.Th>
              <Table.Th>{t('Last response')}</Table.Th>
              <Table.Th>{t('Last attempt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.map((d) => (
              <Table.Tr key={d.id} data-testid="webhook-delivery">
                <Table.Td className={cardCell.lead}>{d.event}</Table.Td>
                <Table.Td data-label={t('Endpoint')} style={{ overflowWrap: 'anywhere' }}>
                  {d.url}
                </Table.Td>
                <Table.Td data-label={t('Status')}>
                  <Badge color={STATUS_COLOR[d.status]} variant="light" c="dark.8" styles={BADGE_STYLES}>
                    {t(STATUS_LABEL[d.status])}
                  </Badge>
                </Table.Td>
                <Table.Td data-label={t('Attempts')}>{d.attempts}</Table.Td>
                <Table.Td data-label={t('Last response')}>{d.last_response_code ?? '—'}</Table.Td>
                <Table.Td data-label={t('Last attempt')}>{d.last_attempt_at ? formatDayTime(d.last_attempt_at) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </CardTable>
      )}
      <Modal opened={target !== null} onClose={() => setTarget(null)} title={t('Remove this endpoint?')} centered>
        <Text mb="lg">{t('Nothing more is sent to {{url}}. Deliveries already made stay in the log.', { url: target?.url ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setTarget(null)}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={() => void confirmRemove()} loading={remove.isPending}>
            {t('Remove')}
          </Button>
        </Group>
      </Modal>
    </Card>
  )
}
