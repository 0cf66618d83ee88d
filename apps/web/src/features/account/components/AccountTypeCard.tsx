import { useState } from 'react'
import { Anchor, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ERRORS, type ClientInfo } from '@portal/domain'
import { paths } from '../../../config/paths.ts'
import { fieldErrorOf } from '../../../lib/api-client.ts'
import { useUpdateClient } from '../api/account.ts'
import { saveFailed } from './save-failed.ts'

export function AccountTypeCard({ info, onFillBilling }: { info: ClientInfo; onFillBilling: () => void }) {
  const { t } = useTranslation()
  const update = useUpdateClient()
  const corporate = info.options.corporate_member
  const [confirming, setConfirming] = useState(false)
  const [switched, setSwitched] = useState<null | 'corporate' | 'personal'>(null)
  // a refusal the switch can explain (members still in the company) stays next to it
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null)
  const doSwitch = async () => {
    setRefusal(null)
    try {
      await update.mutateAsync({ options: { corporate_member: !corporate } })
      setConfirming(false)
      setSwitched(corporate ? 'personal' : 'corporate')
    } catch (err) {
      setConfirming(false)
      const handled = fieldErrorOf(err)
      if (handled) setRefusal(handled)
      else saveFailed(err)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="type-title">
      <Stack>
        <Title order={2} size="h4" id="type-title">
          {t('Account type')}
        </Title>
        <Text>
          <Trans defaults="This is a <b>{{type}}</b> account." values={{ type: t(corporate ? 'corporate' : 'personal') }} components={{ b: <b /> }} />{' '}
          {corporate ? t('Company details and your position appear on invoices.') : t('Switch to corporate to add company details to invoices.')}
        </Text>
        <Button variant="light" onClick={() => setConfirming(true)} aria-describedby={refusal ? 'type-refusal' : undefined}>
          {corporate ? t('Switch to personal') : t('Switch to corporate')}
        </Button>
        {refusal && (
          <Text c="red.8" size="sm" role="alert" id="type-refusal">
            {refusal.message}{' '}
            {refusal.code === ERRORS.org_has_members.code && (
              <Anchor component={Link} to={paths.members}>
                {t('Go to the members')}
              </Anchor>
            )}
          </Text>
        )}
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={corporate ? t('Switch to a personal account?') : t('Switch to a corporate account?')}
        centered
      >
        <Text mb="lg">
          {corporate ? t('Company details stay saved but no longer appear on invoices.') : t('You can then add company details for invoices.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('Cancel')}
          </Button>
          <Button onClick={doSwitch} loading={update.isPending}>
            {t('Switch')}
          </Button>
        </Group>
      </Modal>
      <Modal opened={switched !== null} onClose={() => setSwitched(null)} title={t('Account type changed')} centered>
        <Text mb="lg">
          {t('account.switched', { type: switched })}
          {switched === 'corporate' && ` ${t('Would you like to fill in the billing information now?')}`}
        </Text>
        <Group justify="flex-end">
          {switched === 'corporate' ? (
            <>
              <Button variant="default" onClick={() => setSwitched(null)}>
                {t('Later')}
              </Button>
              <Button
                onClick={() => {
                  setSwitched(null)
                  setTimeout(onFillBilling, 50)
                }}
              >
                {t('Fill in billing info')}
              </Button>
            </>
          ) : (
            <Button onClick={() => setSwitched(null)}>{t('OK')}</Button>
          )}
        </Group>
      </Modal>
    </Card>
  )
}
