import { useState } from 'react'
import {
  Anchor,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Loader,
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
import {
  EXCLUSIVE_LOCKS,
  LICENSE_TITLE_MAX,
  PLATFORM_ARCHITECTURES,
  STAFF_LICENSE_COUNT_MAX,
  VALIDITY_UNITS,
  checkStaffValidity,
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
import { ApiError } from '../../../lib/api-client.ts'
import { paths, supportUrl } from '../../../config/paths.ts'
import { notifySuccess } from '../../../lib/notify.ts'
import { formatCount } from '../../../lib/format.ts'
import { createCustomLicenses, useFaceComponents, useFaceVersions } from '../api/staff.ts'

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

/** The form's fields that can carry an error, and where the body's paths land among them. */
type Field = 'title' | 'email' | 'count' | 'locks' | 'iosId' | 'androidId' | 'platforms' | 'maxVersion' | 'validity' | `content.${string}` | 'xml'
const FIELD_OF_PATH: Record<string, Field> = {
  title: 'title',
  client_email: 'email',
  count: 'count',
  'config.license_expire_delta': 'validity',
  'config.max_version': 'maxVersion',
  'config.xml_config': 'xml',
  'config.device_bound': 'locks',
  custom_tags: 'locks',
  'custom_tags.ios_app_id': 'iosId',
  'custom_tags.android_app_id': 'androidId',
  'custom_tags.allowed_platforms': 'platforms',
  'custom_tags.hardware_key_serial': 'locks',
}
/** A server answer names the failed field by its last path segment. */
const FIELD_OF_SERVER_FIELD: Record<string, Field> = {
  title: 'title',
  client_email: 'email',
  count: 'count',
  license_expire_delta: 'validity',
  max_version: 'maxVersion',
  xml_config: 'xml',
  ios_app_id: 'iosId',
  android_app_id: 'androidId',
  allowed_platforms: 'platforms',
  custom_tags: 'locks',
}

function fieldOf(path: readonly PropertyKey[]): Field | null {
  const joined = path.map(String).join('.')
  if (joined.startsWith('config.license_content.')) return `content.${String(path[2])}`
  return FIELD_OF_PATH[joined] ?? null
}

/** Staff: create custom Face SDK licenses for a client by e-mail (perpetual or subscription). */
export function StaffLicensePage({ variant }: { variant: Variant }) {
  const { t } = useTranslation()
  const profile = useProfile()
  const staff = profile.data?.client_info.is_staff
  if (staff === undefined) {
    return (
      <Center py="xl">
        <Loader aria-label={t('Loading')} />
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
  const [title, setTitle] = useState('')
  const [email, setEmail] = useState('')
  const [count, setCount] = useState('1')
  const [online, setOnline] = useState<'online' | 'offline'>('offline')
  const [locks, setLocks] = useState<LockOption[]>([])
  const [iosId, setIosId] = useState('')
  const [androidId, setAndroidId] = useState('')
  const [platforms, setPlatforms] = useState<string[]>([])
  const [maxVersion, setMaxVersion] = useState<string | null>(null)
  const [validity, setValidity] = useState<number | string>(variant === 'subscription' ? 1 : '')
  const [unit, setUnit] = useState<ValidityUnit>(variant === 'subscription' ? 'month' : 'year')
  const [content, setContent] = useState<Record<string, string>>({})
  const [gpu, setGpu] = useState(false)
  const [xml, setXml] = useState('')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const enabled = enabledLockOptions(locks)

  /** Setting a field clears its error, so a stale message never sits beside a fixed value. */
  const edit =
    <T,>(field: Field, set: (v: T) => void) =>
    (v: T) => {
      set(v)
      setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e))
    }
  const toggleLock = (lock: LockOption, checked: boolean) => edit<LockOption[]>('locks', setLocks)(checked ? [...locks, lock] : locks.filter((x) => x !== lock))

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setResult(null)
    const customTags: Record<string, unknown> = {}
    if (locks.includes('ios_app_id')) customTags.ios_app_id = iosId
    if (locks.includes('android_app_id')) customTags.android_app_id = androidId
    if (locks.includes('usb_token')) customTags.hardware_key_serial = true
    if (locks.includes('platforms')) customTags.allowed_platforms = platforms.join(',')
    const body = {
      title,
      count: Number(count || 0),
      client_email: email,
      config: {
        product: staffFormProduct(variant, online === 'online'),
        license_expire_delta: validity === '' ? null : Number(validity) * VALIDITY_UNITS[unit],
        device_bound: locks.includes('hardware'),
        max_version: maxVersion,
        license_content: Object.fromEntries(
          Object.entries(content)
            .filter(([, v]) => v !== '')
            .map(([k, v]) => [k, Number(v)]),
        ),
        online: online === 'online',
        desktop_gpu_support: gpu,
        ...(xml.trim() ? { xml_config: xml } : {}),
      },
      custom_tags: customTags,
    }
    // every problem at its field, in words; the first field with one takes the focus
    const found: Partial<Record<Field, string>> = {}
    const parsed = staffLicenseBody.safeParse(body)
    const unplaced: string[] = []
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path)
        if (field) found[field] ??= t(issue.message)
        else unplaced.push(t(issue.message))
      }
    }
    if (checkStaffValidity(body.config)) found.validity ??= t('validity_required_error')
    setErrors(found)
    if (Object.keys(found).length || unplaced.length) {
      if (unplaced.length) setResult({ ok: false, text: unplaced[0]! })
      const first = Object.keys(found)[0]
      if (first) document.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus()
      return
    }
    setBusy(true)
    try {
      const res = await createCustomLicenses(body as StaffLicenseBody)
      const text = t('Added {{n}} license(s).', { n: res.licenses.length })
      setResult({ ok: true, text })
      notifySuccess(t('Licenses created'), `${text} ${t('{{email}} sees them on the Face SDK dashboard.', { email })}`)
    } catch (err) {
      const text = err instanceof ApiError ? err.message : t('Something went wrong, please try again later.')
      const field = err instanceof ApiError && err.field ? FIELD_OF_SERVER_FIELD[err.field] : undefined
      if (field) setErrors({ [field]: text })
      else setResult({ ok: false, text })
    } finally {
      setBusy(false)
    }
  }

  const componentList = (components.data?.components ?? []).filter((c) => c !== 'desktop_gpu_support')
  return (
    <Card withBorder padding="lg">
      <form onSubmit={submit} noValidate aria-label={t('Create custom licenses')}>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={t('Title')}
              data-field="title"
              value={title}
              maxLength={LICENSE_TITLE_MAX}
              onChange={(e) => edit('title', setTitle)(e.currentTarget.value)}
              error={errors.title}
              required
            />
            <TextInput
              label={t('User e-mail')}
              data-field="email"
              type="email"
              value={email}
              maxLength={150}
              onChange={(e) => edit('email', setEmail)(e.currentTarget.value)}
              error={errors.email}
              required
            />
            <TextInput
              label={t('Count')}
              // the limit the API allows, said at the field; the rule's own message names it on a refusal
              rightSection={
                <Text size="xs" c="dimmed" data-testid="count-limit">
                  {t('1 to {{max}}', { max: formatCount(STAFF_LICENSE_COUNT_MAX) })}
                </Text>
              }
              rightSectionWidth={72}
              data-field="count"
              inputMode="numeric"
              value={count}
              maxLength={String(STAFF_LICENSE_COUNT_MAX).length}
              onChange={(e) => edit('count', setCount)(digits(e.currentTarget.value))}
              error={errors.count}
              required
            />
          </SimpleGrid>
          <Radio.Group label={t('License type')} value={online} onChange={(v) => setOnline(v as 'online' | 'offline')}>
            <Group mt={4}>
              <Radio value="online" label={t('Online')} />
              <Radio value="offline" label={t('Offline')} />
            </Group>
          </Radio.Group>
          <div role="group" aria-labelledby="locks-label" aria-describedby={errors.locks ? 'locks-error' : undefined}>
            <Text id="locks-label" size="sm" fw={500} mb={4}>
              {t('Locking criteria')}
            </Text>
            <Stack gap="xs">
              {[...EXCLUSIVE_LOCKS, 'platforms' as const].map((lock) => (
                <Group key={lock} gap="sm" align="center">
                  <Checkbox
                    label={t(LOCK_LABELS[lock])}
                    data-field={lock === locks[0] ? 'locks' : undefined}
                    checked={locks.includes(lock)}
                    disabled={!enabled.has(lock)}
                    onChange={(e) => toggleLock(lock, e.currentTarget.checked)}
                  />
                  {lock === 'ios_app_id' && locks.includes(lock) && (
                    <TextInput
                      aria-label={t('iOS app id')}
                      data-field="iosId"
                      size="xs"
                      value={iosId}
                      onChange={(e) => edit('iosId', setIosId)(e.currentTarget.value)}
                      maxLength={256}
                      error={errors.iosId}
                    />
                  )}
                  {lock === 'android_app_id' && locks.includes(lock) && (
                    <TextInput
                      aria-label={t('Android app id')}
                      data-field="androidId"
                      size="xs"
                      value={androidId}
                      onChange={(e) => edit('androidId', setAndroidId)(e.currentTarget.value)}
                      maxLength={256}
                      error={errors.androidId}
                    />
                  )}
                </Group>
              ))}
              {locks.includes('platforms') && (
                <MultiSelect
                  label={t('Platforms and architectures')}
                  data-field="platforms"
                  data={[...PLATFORM_ARCHITECTURES]}
                  value={platforms}
                  onChange={edit('platforms', setPlatforms)}
                  error={errors.platforms}
                  searchable
                />
              )}
              {errors.locks && (
                <Text id="locks-error" size="sm" c="red.8">
                  {errors.locks}
                </Text>
              )}
            </Stack>
          </div>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('Max SDK version')}
              data-field="maxVersion"
              placeholder={t('Any version')}
              data={(versions.data?.facesdk_versions ?? []).map((v) => ({ value: v.version, label: v.is_default ? `${v.version} (current)` : v.version }))}
              value={maxVersion}
              onChange={edit('maxVersion', setMaxVersion)}
              error={errors.maxVersion}
              clearable
            />
            <NumberInput
              label={t('Validity')}
              data-field="validity"
              description={variant === 'perpetual' ? t('Empty: never expires') : undefined}
              value={validity}
              onChange={edit('validity', setValidity)}
              error={errors.validity}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              required={variant === 'subscription'}
            />
            <Select
              label={t('Unit')}
              data={(Object.keys(VALIDITY_UNITS) as ValidityUnit[]).map((u) => ({ value: u, label: t(UNIT_LABELS[u]) }))}
              value={unit}
              onChange={(v) => v && setUnit(v as ValidityUnit)}
              allowDeselect={false}
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
                  data-field={`content.${c}`}
                  inputMode="numeric"
                  value={content[c] ?? ''}
                  onChange={(e) => edit(`content.${c}`, (v: string) => setContent((x) => ({ ...x, [c]: v })))(digits(e.currentTarget.value))}
                  error={errors[`content.${c}`]}
                  maxLength={9}
                />
              ))}
            </SimpleGrid>
          </div>
          <Checkbox label={faceComponentName('desktop_gpu_support')} checked={gpu} onChange={(e) => setGpu(e.currentTarget.checked)} />
          <Textarea
            label={t('XML config')}
            data-field="xml"
            autosize
            minRows={3}
            value={xml}
            onChange={(e) => edit('xml', setXml)(e.currentTarget.value)}
            error={errors.xml}
          />
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Text role={result?.ok === false ? 'alert' : 'status'} c={result?.ok ? 'green.8' : 'red.8'} data-testid="staff-result">
              {result?.text}
            </Text>
            <Button type="submit" loading={busy}>
              {t('Create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
