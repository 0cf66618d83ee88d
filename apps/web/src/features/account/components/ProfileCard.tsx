import { Button, Card, Group, SimpleGrid, Stack, TextInput, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { LIMITS, updateClientBody, type ClientInfo } from '@portal/domain'
import { FormError } from '../../../components/FormError.tsx'
import { notifySuccess } from '../../../lib/notify.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useUpdateClient } from '../api/account.ts'

/** The profile update's own fields, with the company as the body nests it. */
const profileSchema = updateClientBody.pick({ name: true, last_name: true, phone: true, position: true, company: true }).required()

type ProfileKey = 'name' | 'last_name' | 'phone' | 'position' | `company.${'name' | 'address' | 'vat' | 'type' | 'site'}`

export function ProfileCard({ info, companyRef }: { info: ClientInfo; companyRef: React.RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation()
  const corporate = info.options.corporate_member
  const update = useUpdateClient()
  const { name, last_name, phone, position, company } = info
  // the server names a refused field by its path in the body, as the inputs are named here (`company.name`)
  const form = useSchemaForm(profileSchema, { name, last_name, phone, position, company: { ...company } })
  const field = (key: ProfileKey, label: string, max: number, extra: Record<string, unknown> = {}) => (
    <TextInput label={t(label)} maxLength={max} {...form.getInputProps(key)} {...extra} />
  )
  const submit = form.submit(async (v) => {
    await update.mutateAsync({
      name: v.name,
      last_name: v.last_name,
      phone: v.phone,
      ...(corporate ? { position: v.position, company: v.company } : {}),
    })
    notifySuccess(t('Profile saved'))
  })
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="profile-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="profile-title">
            {t('Profile')}
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
                {t('Company')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {field('company.name', 'Company name', LIMITS.companyName, { autoComplete: 'organization' })}
                {field('company.vat', 'Tax id', LIMITS.companyVat)}
                {field('company.type', 'Company type', LIMITS.companyType)}
                {field('company.site', 'Website', LIMITS.companySite, { type: 'url' })}
              </SimpleGrid>
              {field('company.address', 'Address', LIMITS.companyAddress, { mt: 'sm', autoComplete: 'street-address' })}
            </div>
          )}
          <FormError message={form.formError} />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>
              {t('Save profile')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
