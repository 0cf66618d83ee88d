import { useState } from 'react'
import { Alert, Badge, Button, Card, Code, CopyButton, Group, Modal, NativeSelect, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { TOKEN_NAME_MAX, tokenCreateBody, type TokenExpiryDays, type TokenScope, type TokenView } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { CardTable, cardCell } from '../../../components/TableScroll.tsx'
import { formatDate, formatDayTime } from '../../../lib/format.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useCreateToken } from '../api/create-token.ts'
import { useRevokeToken } from '../api/revoke-token.ts'
import { useTokens } from '../api/tokens.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/** a badge in a table cell keeps its whole word (the cell does not squeeze it to an ellipsis) */
const BADGE_STYLES = { root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }
const EXPIRY_CHOICES: { value: string; days: TokenExpiryDays; label: string }[] = [
  { value: '30', days: 30, label: '30 days' },
  { value: '90', days: 90, label: '90 days' },
  { value: '365', days: 365, label: '365 days' },
  { value: 'never', days: null, label: 'Never' },
]
const SCOPE_LABEL: Record<TokenScope, string> = { read: 'Read only', manage: 'Manage' }
const STATE_COLOR: Record<TokenView['state'], string> = { active: 'green', expired: 'gray', revoked: 'red' }
const STATE_LABEL: Record<TokenView['state'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }

/**
 * The account's API tokens: made with a name, a scope and a lifetime; the token itself is shown once,
 * right after it is made, with a Copy button; each is listed with its last use and can be revoked.
 */
export function ApiTokens() {
  const { t } = useTranslation()
  const tokens = useTokens()
  const create = useCreateToken()
  const revoke = useRevokeToken()
  const [shown, setShown] = useState<{ name: string; secret: string } | null>(null)
  const [target, setTarget] = useState<TokenView | null>(null)
  const form = useSchemaForm(tokenCreateBody, { name: '', scope: 'read' as TokenScope, expires_in_days: 90 as TokenExpiryDays })
  const submit = form.submit(async (body) => {
    const made = await create.mutateAsync(body)
    setShown({ name: made.token.name, secret: made.secret })
    form.reset()
  })
  const confirmRevoke = async () => {
    if (!target) return
    try {
      await revoke.mutateAsync(target.id)
    } catch {
      // the error dialog has told the user
    } finally {
      setTarget(null)
    }
  }
  const list = tokens.data?.tokens ?? []
  const expiry = form.getValues().expires_in_days
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="api-tokens-title" data-testid="api-tokens">
      <Title order={2} size="h4" id="api-tokens-title" mb="xs">
        {t('API tokens')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t(
          'A token lets a script call the portal’s API for your licenses, groups, keys, devices and payment documents, with the header Authorization: Bearer <token>. A read-only token can only read.',
        )}
      </Text>
      {shown ? (
        <Alert color="green" title={t('Token “{{name}}” created', { name: shown.name })} mb="md" role="status" data-testid="new-token">
          <Stack gap="xs">
            <Text size="sm">{t('Copy it now: it will not be shown again.')}</Text>
            <Code block data-testid="new-token-value" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {shown.secret}
            </Code>
            <Group gap="xs">
              <CopyButton value={shown.secret}>
                {({ copied, copy }) => (
                  <Button size="xs" color={copied ? 'teal' : undefined} onClick={copy}>
                    {copied ? t('Copied') : t('Copy')}
                  </Button>
                )}
              </CopyButton>
              <Button size="xs" variant="default" onClick={() => setShown(null)}>
                {t('Done')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate aria-label={t('Create an API token')}>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('Token name')}
            placeholder={t('Provisioning script')}
            maxLength={TOKEN_NAME_MAX + 1}
            style={{ flex: '1 1 14rem' }}
            {...form.getInputProps('name')}
          />
          <NativeSelect
            label={t('Scope')}
            data={(['read', 'manage'] as const).map((s) => ({ value: s, label: t(SCOPE_LABEL[s]) }))}
            style={{ flex: '1 1 9rem' }}
            {...form.getInputProps('scope')}
          />
          <NativeSelect
            label={t('Expires after')}
            data={EXPIRY_CHOICES.map((c) => ({ value: c.value, label: t(c.label) }))}
            style={{ flex: '1 1 9rem' }}
            value={expiry === null ? 'never' : String(expiry)}
            onChange={(e) => form.setFieldValue('expires_in_days', EXPIRY_CHOICES.find((c) => c.value === e.currentTarget.value)?.days ?? null)}
            error={form.errors.expires_in_days}
          />
        </Group>
        <FormError message={form.formError} />
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={form.submitting}>
            {t('Create token')}
          </Button>
        </Group>
      </form>
      <Title order={3} size="h5" mt="lg" mb="xs">
        {t('Your tokens')}
      </Title>
      {tokens.isPending ? (
        <Spinner label={t('Loading your tokens')} size="sm" />
      ) : tokens.isError ? (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{t('The tokens could not be loaded.')}</Text>
            <Button size="xs" variant="light" onClick={() => void tokens.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      ) : list.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('No tokens yet.')}
        </Text>
      ) : (
        <CardTable minWidth={700}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Scope')}</Table.Th>
              <Table.Th>{t('Token')}</Table.Th>
              <Table.Th>{t('Expires')}</Table.Th>
              <Table.Th>{t('Last used')}</Table.Th>
              <Table.Th>{t('State')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((tok) => (
              <Table.Tr key={tok.id} data-testid="token-row">
                <Table.Td className={cardCell.lead}>{tok.name}</Table.Td>
                <Table.Td data-label={t('Scope')}>{t(SCOPE_LABEL[tok.scope])}</Table.Td>
                <Table.Td data-label={t('Token')}>
                  <Code>{tok.hint}…</Code>
                </Table.Td>
                <Table.Td data-label={t('Expires')}>{tok.expires_at ? formatDate(tok.expires_at) : t('Never')}</Table.Td>
                <Table.Td data-label={t('Last used')}>{tok.last_used_at ? formatDayTime(tok.last_used_at) : t('Never used')}</Table.Td>
                <Table.Td data-label={t('State')}>
                  <Badge color={STATE_COLOR[tok.state]} variant="light" c="dark.8" styles={BADGE_STYLES}>
                    {t(STATE_LABEL[tok.state])}
                  </Badge>
                </Table.Td>
                <Table.Td className={cardCell.actions}>
                  {tok.state === 'active' ? (
                    <Button size="xs" variant="light" color="red" onClick={() => setTarget(tok)} aria-label={t('Revoke {{name}}', { name: tok.name })}>
                      {t('Revoke')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </CardTable>
      )}
      <Modal opened={target !== null} onClose={() => setTarget(null)} title={t('Revoke this token?')} centered>
        <Text mb="lg">{t('Scripts using “{{name}}” stop working at once: their next call is refused.', { name: target?.name ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setTarget(null)}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={() => void confirmRevoke()} loading={revoke.isPending}>
            {t('Revoke')}
          </Button>
        </Group>
      </Modal>
    </Card>
  )
}
