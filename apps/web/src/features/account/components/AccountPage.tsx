import { useRef, useState } from 'react'
import { Alert, Button, Card, Grid, Group, Modal, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { z } from 'zod'
import { LIMITS, changePasswordForm, companySchema, emailField, profileFields, type ClientInfo, type OptionKey } from '@portal/domain'
import { useProfile } from '../../../api/profile.ts'
import { useZodForm } from '../../../lib/form.ts'
import { errorStore } from '../../../lib/error-store.ts'
import { RequestError, describeFailure } from '../../../lib/api-client.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { changePassword, useUpdateClient } from '../api/account.ts'

export function AccountPage() {
  const profile = useProfile().data!
  const info = profile.client_info
  const companyRef = useRef<HTMLDivElement>(null)
  return (
    <>
      <PageTitle>Account</PageTitle>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <ProfileCard key={`profile-${info.options.corporate_member}`} info={info} companyRef={companyRef} />
            <OptionsCard info={info} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <AccountTypeCard info={info} onFillBilling={() => companyRef.current?.querySelector('input')?.focus()} />
            <EmailCard info={info} />
            <PasswordCard />
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  )
}

/** Account save failures show a dialog with the translated text (section 8). */
const saveFailed = (err: unknown) => {
  if (err instanceof RequestError) errorStore.show(describeFailure(err))
}

const profileSchema = z.object({
  name: profileFields.name,
  last_name: profileFields.last_name,
  phone: profileFields.phone,
  position: profileFields.position,
  company_name: companySchema.shape.name,
  company_address: companySchema.shape.address,
  company_vat: companySchema.shape.vat,
  company_type: companySchema.shape.type,
  company_site: companySchema.shape.site,
})

function ProfileCard({ info, companyRef }: { info: ClientInfo; companyRef: React.RefObject<HTMLDivElement | null> }) {
  const corporate = info.options.corporate_member
  const update = useUpdateClient()
  const form = useZodForm(profileSchema, {
    name: info.name,
    last_name: info.last_name,
    phone: info.phone,
    position: info.position,
    company_name: info.company.name,
    company_address: info.company.address,
    company_vat: info.company.vat,
    company_type: info.company.type,
    company_site: info.company.site,
  })
  const field = (key: keyof typeof form.values, label: string, max: number, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      maxLength={max}
      value={String(form.values[key] ?? '')}
      onChange={(e) => form.set(key, e.currentTarget.value)}
      error={form.errors[key]}
      {...extra}
    />
  )
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const v = form.validate()
    if (!v) return
    try {
      await update.mutateAsync({
        name: v.name,
        last_name: v.last_name,
        phone: v.phone,
        ...(corporate
          ? { position: v.position, company: { name: v.company_name, address: v.company_address, vat: v.company_vat, type: v.company_type, site: v.company_site } }
          : {}),
      })
      notifications.show({ color: 'green', message: 'Profile saved' })
    } catch (err) {
      saveFailed(err)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="profile-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="profile-title">
            Profile
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {field('name', 'Name', LIMITS.name, { autoComplete: 'given-name' })}
            {field('last_name', 'Last name', LIMITS.lastName, { autoComplete: 'family-name' })}
            {field('phone', 'Phone', LIMITS.phone, { autoComplete: 'tel', type: 'tel' })}
            {corporate && field('position', 'Position', LIMITS.position, { autoComplete: 'organization-title' })}
          </SimpleGrid>
          {corporate && (
            <div ref={companyRef}>
              <Title order={3} size="h5" mb="xs" id="company-title">
                Company
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {field('company_name', 'Company name', LIMITS.companyName, { autoComplete: 'organization' })}
                {field('company_vat', 'Tax id', LIMITS.companyVat)}
                {field('company_type', 'Company type', LIMITS.companyType)}
                {field('company_site', 'Website', LIMITS.companySite, { type: 'url' })}
              </SimpleGrid>
              {field('company_address', 'Address', LIMITS.companyAddress, { mt: 'sm', autoComplete: 'street-address' })}
            </div>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              Save profile
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}

const OPTION_LABELS: Partial<Record<OptionKey, string>> = {
  balance_autofill: 'Top up the balance automatically for subscriptions',
  bills_mail: 'Send me bills by e-mail',
  news_notification: 'News of the company',
  updates_notification: 'Product updates',
}

function OptionsCard({ info }: { info: ClientInfo }) {
  const update = useUpdateClient()
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="options-title">
      <Stack>
        <Title order={2} size="h4" id="options-title">
          Notifications and options
        </Title>
        {(Object.keys(OPTION_LABELS) as OptionKey[]).map((key) => (
          <Switch
            key={key}
            label={OPTION_LABELS[key]}
            checked={info.options[key]}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ options: { [key]: e.currentTarget.checked } }, { onError: saveFailed })}
          />
        ))}
      </Stack>
    </Card>
  )
}

function AccountTypeCard({ info, onFillBilling }: { info: ClientInfo; onFillBilling: () => void }) {
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
        <Text mb="lg">Your account is now {switched}.{switched === 'corporate' && ' Would you like to fill in the billing information now?'}</Text>
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

const emailSchema = z.object({ email: emailField })

function EmailCard({ info }: { info: ClientInfo }) {
  const update = useUpdateClient()
  const form = useZodForm(emailSchema, { email: '' })
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const v = form.validate()
    if (!v) return
    if (v.email.toLowerCase() === info.email.toLowerCase()) return form.setErrors({ email: 'This is already your e-mail' })
    try {
      await update.mutateAsync({ email: v.email })
      form.set('email', '')
    } catch (err) {
      form.showServerError(err)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="email-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="email-title">
            E-mail
          </Title>
          <Text size="sm" className="portal-wrap-anywhere">
            Current: <b data-testid="current-email">{info.email}</b>
          </Text>
          {info.pending_email && (
            <Alert color="blue" role="status" className="portal-wrap-anywhere" data-testid="pending-email-notice">
              We sent a confirmation link to {info.pending_email}. The change takes effect once you follow it.
            </Alert>
          )}
          <TextInput
            label="New e-mail"
            type="email"
            autoComplete="email"
            maxLength={LIMITS.emailMax + 1}
            value={form.values.email}
            onChange={(e) => form.set('email', e.currentTarget.value)}
            error={form.errors.email}
          />
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={update.isPending}>
              Change e-mail
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}

function PasswordCard() {
  const form = useZodForm(changePasswordForm, { old_password: '', new_password: '', repeat_password: '' })
  const [pending, setPending] = useState(false)
  const [done, setDone] = useState(false)
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const v = form.validate()
    if (!v) return
    setPending(true)
    try {
      await changePassword({ old_password: v.old_password, new_password: v.new_password })
      setDone(true)
      form.setValues({ old_password: '', new_password: '', repeat_password: '' })
    } catch (err) {
      form.showServerError(err)
    } finally {
      setPending(false)
    }
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="password-title">
      <Title order={2} size="h4" id="password-title" mb="md">
        Password
      </Title>
      {done ? (
        <Stack>
          <Alert color="green" role="status">
            Your password has been changed. Other devices signed in to your account were signed out.
          </Alert>
          <Button variant="light" onClick={() => setDone(false)}>
            Done
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Change password">
          <Stack>
            {(['old_password', 'new_password', 'repeat_password'] as const).map((key) => (
              <PasswordInput
                key={key}
                label={{ old_password: 'Current password', new_password: 'New password', repeat_password: 'Repeat new password' }[key]}
                autoComplete={key === 'old_password' ? 'current-password' : 'new-password'}
                maxLength={LIMITS.passwordMax + 1}
                value={form.values[key]}
                onChange={(e) => form.set(key, e.currentTarget.value)}
                error={form.errors[key]}
              />
            ))}
            <Group justify="flex-end">
              <Button type="submit" loading={pending}>
                Change password
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  )
}
