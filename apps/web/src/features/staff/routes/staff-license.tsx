import { useMemo, useState, type ReactNode } from 'react'
import {
  Anchor,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { z } from 'zod'
import {
  EXCLUSIVE_LOCKS,
  LICENSE_TITLE_MAX,
  PLATFORM_ARCHITECTURES,
  STAFF_LICENSE_COUNT_MAX,
  VALIDITY_UNITS,
  enabledLockOptions,
  faceComponentName,
  staffFormProduct,
  staffLicenseBody,
  type LockOption,
  type StaffLicenseBody,
  type ValidityUnit,
} from '@portal/domain'
import { useProfile } from '../../../lib/use-profile.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { FormError } from '../../../components/FormError.tsx'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { paths, supportUrl } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { formatCount } from '../../../lib/format.ts'
import { createCustomLicenses, useFaceComponents, useFaceVersions } from '../api/staff.ts'
import { Spinner } from '../../../components/Spinner.tsx'

type Variant = 'perpetual' | 'subscription'

const LOCK_LABELS: Record<LockOption, string> = {
  hardware: 'Hardware (device request file)',
  ios_app_id: 'iOS app id',
  android_app_id: 'Android app id',
  usb_token: 'USB token',
  platforms: 'Platforms',
}

const UNIT_LABELS: Record<ValidityUnit, string> = { day: 'Days', month: 'Months', year: 'Years' }

const digits = (v: string) => v.replace(/\D+/g, '')

/**
 * What the form's inputs hold: the staff order's body (staffLicenseBody), where an input holds text
 * for a number (count, license content, the validity counted in `unit`s) and the locks as the
 * checkboxes hold them. `toOrder` turns them into the body the server parses.
 */
type StaffValues = {
  title: string
  client_email: string
  count: string
  online: 'online' | 'offline'
  locks: LockOption[]
  unit: ValidityUnit
  config: {
    license_expire_delta: number | string
    max_version: string | null
    license_content: Record<string, string>
    desktop_gpu_support: boolean
    xml_config: string
  }
  custom_tags: { ios_app_id: string; android_app_id: string; allowed_platforms: string[] }
}

function toOrder(variant: Variant, v: StaffValues): StaffLicenseBody {
  const { locks, config, custom_tags: tags } = v
  const validity = config.license_expire_delta
  return {
    title: v.title,
    count: Number(v.count || 0),
    client_email: v.client_email,
    config: {
      product: staffFormProduct(variant, v.online === 'online'),
      license_expire_delta: validity === '' ? null : Number(validity) * VALIDITY_UNITS[v.unit],
      device_bound: locks.includes('hardware'),
      max_version: config.max_version,
      license_content: Object.fromEntries(
        Object.entries(config.license_content)
          .filter(([, n]) => n !== '')
          .map(([k, n]) => [k, Number(n)]),
      ),
      online: v.online === 'online',
      desktop_gpu_support: config.desktop_gpu_support,
      ...(config.xml_config.trim() ? { xml_config: config.xml_config } : {}),
    },
    custom_tags: {
      ...(locks.includes('ios_app_id') ? { ios_app_id: tags.ios_app_id } : {}),
      ...(locks.includes('android_app_id') ? { android_app_id: tags.android_app_id } : {}),
      ...(locks.includes('usb_token') ? { hardware_key_serial: true as const } : {}),
      ...(locks.includes('platforms') ? { allowed_platforms: tags.allowed_platforms.join(',') } : {}),
    },
  }
}

/** The server's own body schema, read from what the inputs hold: each problem lands at the input of its path. */
const staffOrderForm = (variant: Variant) => z.preprocess((values) => toOrder(variant, values as StaffValues), staffLicenseBody)

const initialValues = (variant: Variant): StaffValues => ({
  title: '',
  client_email: '',
  count: '1',
  online: 'offline',
  locks: [],
  unit: variant === 'subscription' ? 'month' : 'year',
  config: { license_expire_delta: variant === 'subscription' ? 1 : '', max_version: null, license_content: {}, desktop_gpu_support: false, xml_config: '' },
  custom_tags: { ios_app_id: '', android_app_id: '', allowed_platforms: [] },
})

/** The order's paths that concern the locks as a whole: their problem is said under the checkboxes. */
const LOCK_PATHS = ['custom_tags', 'custom_tags_extra', 'config.device_bound', 'custom_tags.hardware_key_serial']

/** Staff: create custom Face SDK licenses for a client by e-mail (perpetual or subscription). */
export function StaffLicensePage({ variant }: { variant: Variant }) {
  const { t } = useTranslation()
  const profile = useProfile()
  const staff = profile.data?.client_info.is_staff
  if (staff === undefined) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading')} />
      </Center>
    )
  }
  return staff ? <StaffForms variant={variant} /> : <StaffOnly />
}

/** What a customer who opens a staff address sees: plainly, that the page is not for them. */
function StaffOnly() {
  const { t } = useTranslation()
  return (
    <Center py="xl">
      <Paper withBorder radius="lg" p="xl" maw={520} w="100%">
        <Stack gap="sm">
          <Title order={1} size="h2">
            {t('This page is for staff')}
          </Title>
          <Text>
            {t(
              'Custom licenses are made by the 3DiVi team. If you need a license that the dashboards do not offer, write to our support and we will prepare one for you.',
            )}
          </Text>
          <Group gap="lg">
            <Anchor component={Link} to={paths.dashboard('face')}>
              {t('Go to your licenses')}
            </Anchor>
            <Anchor href={supportUrl('freshdesk')} target="_blank" rel="noopener noreferrer">
              {t('Contact support')}
            </Anchor>
          </Group>
        </Stack>
      </Paper>
    </Center>
  )
}

function StaffForms({ variant }: { variant: Variant }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <>
      <PageTitle>{t('Custom licenses')}</PageTitle>
      <Tabs value={variant} onChange={(v) => navigate(v === 'subscription' ? paths.staffSubscription : paths.staffPerpetual)}>
        <Tabs.List>
          <Tabs.Tab value="perpetual">{t('Perpetual custom license')}</Tabs.Tab>
          <Tabs.Tab value="subscription">{t('Custom subscription license')}</Tabs.Tab>
        </Tabs.List>
        {(['perpetual', 'subscription'] as const).map((v) => (
          <Tabs.Panel key={v} value={v} pt="md">
            {v === variant && <StaffLicenseForm key={v} variant={v} />}
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  )
}

function StaffLicenseForm({ variant }: { variant: Variant }) {
  const { t } = useTranslation()
  // the page mounts the form for staff only, so the staff-only reads can run
  const versions = useFaceVersions(true)
  const components = useFaceComponents(true)
  const schema = useMemo(() => staffOrderForm(variant), [variant])
  const form = useSchemaForm(schema, initialValues(variant))
  const [done, setDone] = useState<string | null>(null)
  const { locks, custom_tags: tags, config } = form.values
  const enabled = enabledLockOptions(locks)
  const lockError = LOCK_PATHS.map((p) => form.getInputProps(p).error as ReactNode).find(Boolean)

  const toggleLock = (lock: LockOption, checked: boolean) => {
    form.setFieldValue('locks', checked ? [...locks, lock] : locks.filter((x) => x !== lock))
    for (const p of LOCK_PATHS) form.clearFieldError(p)
  }
  /** an input of digits only: what else is typed or pasted is left out */
  const digitsProps = (path: 'count' | `config.license_content.${string}`, value: string) => ({
    ...form.getInputProps(path),
    value,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => form.setFieldValue(path, digits(e.currentTarget.value)),
  })

  const submit = form.submit(async (order) => {
    setDone(null)
    const res = await createCustomLicenses(order)
    const text = t('Added {{n}} license(s).', { n: res.licenses.length })
    setDone(text)
    notifySuccess(t('Licenses created'), `${text} ${t('{{email}} sees them on the Face SDK dashboard.', { email: order.client_email })}`)
  })

  const componentList = (components.data?.components ?? []).filter((c) => c !== 'desktop_gpu_support')
  return (
    <Card withBorder padding="lg">
      <form
        onSubmit={(e) => {
          setDone(null)
          submit(e)
        }}
        noValidate
        aria-label={t('Create custom licenses')}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label={t('Title')} maxLength={LICENSE_TITLE_MAX} required {...form.getInputProps('title')} />
            <TextInput label={t('User e-mail')} type="email" maxLength={150} required {...form.getInputProps('client_email')} />
            <TextInput
              label={t('Count')}
              // the limit the API allows, said at the field; the rule's own message names it on a refusal
              rightSection={
                <Text size="xs" c="dimmed" data-testid="count-limit">
                  {t('1 to {{max}}', { max: formatCount(STAFF_LICENSE_COUNT_MAX) })}
                </Text>
              }
              rightSectionWidth={72}
              inputMode="numeric"
              maxLength={String(STAFF_LICENSE_COUNT_MAX).length}
              required
              {...digitsProps('count', form.values.count)}
            />
          </SimpleGrid>
          <Radio.Group label={t('License type')} {...form.getInputProps('online')}>
            <Group mt={4}>
              <Radio value="online" label={t('Online')} />
              <Radio value="offline" label={t('Offline')} />
            </Group>
          </Radio.Group>
          <div role="group" aria-labelledby="locks-label" aria-describedby={lockError ? 'locks-error' : undefined}>
            <Text id="locks-label" size="sm" fw={500} mb={4}>
              {t('Locking criteria')}
            </Text>
            <Stack gap="xs">
              {[...EXCLUSIVE_LOCKS, 'platforms' as const].map((lock) => (
                <Group key={lock} gap="sm" align="center">
                  <Checkbox
                    label={t(LOCK_LABELS[lock])}
                    checked={locks.includes(lock)}
                    disabled={!enabled.has(lock)}
                    onChange={(e) => toggleLock(lock, e.currentTarget.checked)}
                  />
                  {lock === 'ios_app_id' && locks.includes(lock) && (
                    <TextInput aria-label={t('iOS app id')} size="xs" maxLength={256} {...form.getInputProps('custom_tags.ios_app_id')} />
                  )}
                  {lock === 'android_app_id' && locks.includes(lock) && (
                    <TextInput aria-label={t('Android app id')} size="xs" maxLength={256} {...form.getInputProps('custom_tags.android_app_id')} />
                  )}
                </Group>
              ))}
              {locks.includes('platforms') && (
                <MultiSelect
                  label={t('Platforms and architectures')}
                  data={[...PLATFORM_ARCHITECTURES]}
                  searchable
                  {...form.getInputProps('custom_tags.allowed_platforms')}
                  value={tags.allowed_platforms}
                />
              )}
              {lockError && (
                <Text id="locks-error" size="sm" c="red.8">
                  {lockError}
                </Text>
              )}
            </Stack>
          </div>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('Max SDK version')}
              placeholder={t('Any version')}
              data={(versions.data?.facesdk_versions ?? []).map((v) => ({ value: v.version, label: v.is_default ? `${v.version} (current)` : v.version }))}
              clearable
              {...form.getInputProps('config.max_version')}
            />
            <NumberInput
              label={t('Validity')}
              description={variant === 'perpetual' ? t('Empty: never expires') : undefined}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              required={variant === 'subscription'}
              {...form.getInputProps('config.license_expire_delta')}
            />
            <Select
              label={t('Unit')}
              data={(Object.keys(VALIDITY_UNITS) as ValidityUnit[]).map((u) => ({ value: u, label: t(UNIT_LABELS[u]) }))}
              allowDeselect={false}
              {...form.getInputProps('unit')}
            />
          </SimpleGrid>
          <div>
            <Title order={2} size="h5" mb="xs">
              {t('License content')}
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
              {componentList.map((c) => (
                <TextInput
                  key={c}
                  label={faceComponentName(c)}
                  inputMode="numeric"
                  maxLength={9}
                  {...digitsProps(`config.license_content.${c}`, config.license_content[c] ?? '')}
                />
              ))}
            </SimpleGrid>
          </div>
          <Checkbox label={faceComponentName('desktop_gpu_support')} {...form.getInputProps('config.desktop_gpu_support', { type: 'checkbox' })} />
          <Textarea label={t('XML config')} autosize minRows={3} {...form.getInputProps('config.xml_config')} />
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            {/* the result line: what was made, or a refusal that belongs to no input */}
            <div data-testid="staff-result">
              {done && (
                <Text role="status" c="green.8">
                  {done}
                </Text>
              )}
              <FormError message={form.formError} />
            </div>
            <Button type="submit" loading={form.submitting}>
              {t('Create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
