import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LIMITS, SALES_LIMITS, salesMessageBody, type ClientInfo } from '@portal/domain'
import { useProfile } from '../../../lib/use-profile.ts'
import { contactSales, useContactSales, type ContactSalesState } from '../../../lib/contact-sales.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { FormError } from '../../../components/FormError.tsx'
import { useSendSalesMessage } from '../api/contact-sales.ts'

/** the details input takes more than the rule allows, so an over-long paste shows its error (section 9: details input 99999) */
const DETAILS_INPUT_MAX = 99_999

const fullName = (info: ClientInfo | undefined) => [info?.name, info?.last_name].filter(Boolean).join(' ').slice(0, SALES_LIMITS.name)

function ContactSalesForm({ state, info, onSent }: { state: ContactSalesState; info: ClientInfo | undefined; onSent: (email: string) => void }) {
  const { t } = useTranslation()
  const send = useSendSalesMessage()
  const form = useSchemaForm(salesMessageBody, {
    recipient: state.recipient,
    name: fullName(info),
    email: info?.email ?? '',
    message: state.details ?? '',
  })
  const length = form.values.message.trim().length

  const submit = form.submit(async (body) => {
    await send.mutateAsync(body)
    onSent(body.email)
  })

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('Tell us what you need and our sales team will get back to you within one working day.')}
        </Text>
        <TextInput label={t('Name')} autoComplete="name" required maxLength={SALES_LIMITS.name} {...form.getInputProps('name')} />
        <TextInput label={t('E-mail')} type="email" autoComplete="email" required maxLength={LIMITS.emailMax + 1} {...form.getInputProps('email')} />
        <Textarea
          label={t('Details')}
          required
          autosize
          minRows={5}
          maxRows={12}
          maxLength={DETAILS_INPUT_MAX}
          description={t('{{count}} of {{max}} characters, at least {{min}}', { count: length, max: SALES_LIMITS.detailsMax, min: SALES_LIMITS.detailsMin })}
          {...form.getInputProps('message')}
        />
        <FormError message={form.formError} title={t('Request not sent')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={contactSales.close}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting}>
            {t('Send')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

/**
 * The contact-sales modal (spec sections 2 and 5): name, e-mail (from the profile) and details,
 * then a thank-you. Mounted once by the shell; `contactSales.open()` (src/lib) shows it.
 */
export function ContactSalesModal() {
  const { t } = useTranslation()
  const state = useContactSales()
  const profile = useProfile()
  const [sentTo, setSentTo] = useState<{ id: number; email: string } | null>(null)
  const sent = state && sentTo?.id === state.id ? sentTo.email : null

  return (
    <Modal opened={state !== null} onClose={contactSales.close} title={t('Contact sales')} size="lg" centered closeButtonProps={{ 'aria-label': t('Close') }}>
      {state && sent !== null ? (
        <Stack>
          <Alert color="green" role="status" title={t('Thank you! Your message has been sent.')}>
            {t('Our sales team will reply to {{email}} within one working day.', { email: sent })}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={contactSales.close} data-autofocus>
              {t('Done')}
            </Button>
          </Group>
        </Stack>
      ) : state ? (
        <ContactSalesForm
          key={`${state.id}:${profile.data ? 1 : 0}`}
          state={state}
          info={profile.data?.client_info}
          onSent={(email) => setSentTo({ id: state.id, email })}
        />
      ) : null}
    </Modal>
  )
}
