import { useState } from 'react'
import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core'
import type { ClientInfo } from '@portal/domain'
import { useUpdateClient } from '../api/account.ts'
import { saveFailed } from './save-failed.ts'

export function AccountTypeCard({ info, onFillBilling }: { info: ClientInfo; onFillBilling: () => void }) {
  const update = useUpdateClient()
  const corporate = info.options.corporate_member
  const [confirming, setConfirming] = useState(false)
  const [switched, setSwitched] = useState<null | 'corporate' | 'personal'>(null)
  const doSwitch = async () => {
    try {
      await update.mutateAsync({ options: { corporate_member: !corporate } })
      setConfirming(false)
      setSwitched(corporate ? 'personal' : 'corporate')
    } catch (err) {
      setConfirming(false)
      saveFailed(err)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="type-title">
      <Stack>
        <Title order={2} size="h4" id="type-title">
          Account type
        </Title>
        <Text>
          This is a <b>{corporate ? 'corporate' : 'personal'}</b> account.
          {corporate ? ' Company details and your position appear on invoices.' : ' Switch to corporate to add company details to invoices.'}
        </Text>
        <Button variant="light" onClick={() => setConfirming(true)}>
          Switch to {corporate ? 'personal' : 'corporate'}
        </Button>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Switch to a ${corporate ? 'personal' : 'corporate'} account?`} centered>
        <Text mb="lg">{corporate ? 'Company details stay saved but no longer appear on invoices.' : 'You can then add company details for invoices.'}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button onClick={doSwitch} loading={update.isPending}>
            Switch
          </Button>
        </Group>
      </Modal>
      <Modal opened={switched !== null} onClose={() => setSwitched(null)} title="Account type changed" centered>
        <Text mb="lg">
          Your account is now {switched}.{switched === 'corporate' && ' Would you like to fill in the billing information now?'}
        </Text>
        <Group justify="flex-end">
          {switched === 'corporate' ? (
            <>
              <Button variant="default" onClick={() => setSwitched(null)}>
                Later
              </Button>
              <Button
                onClick={() => {
                  setSwitched(null)
                  setTimeout(onFillBilling, 50)
                }}
              >
                Fill in billing info
              </Button>
            </>
          ) : (
            <Button onClick={() => setSwitched(null)}>OK</Button>
          )}
        </Group>
      </Modal>
    </Card>
  )
}
