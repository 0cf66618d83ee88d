import { Button, Card, Group, SimpleGrid, Stack, TextInput, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { LIMITS, companySchema, profileFields, type ClientInfo } from '@portal/domain'
import { useZodForm } from '../../../lib/form.ts'
import { useUpdateClient } from '../api/account.ts'
import { saveFailed } from './save-failed.ts'

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

export function ProfileCard({ info, companyRef }: { info: ClientInfo; companyRef: React.RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation()
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
    <TextInput label={t(label)} maxLength={max} {...form.text(key)} error={form.errors[key]} {...extra} />
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
          ? {
              position: v.position,
              company: { name: v.company_name, address: v.company_address, vat: v.company_vat, type: v.company_type, site: v.company_site },
            }
          : {}),
      })
      notifications.show({ color: 'green', message: t('Profile saved') })
    } catch (err) {
      saveFailed(err)
    }
  }
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
              {t('Save profile')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
