import { useState } from 'react'
import { Alert, Button, Card, Checkbox, Group, MultiSelect, NumberInput, Radio, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core'
import { useNavigate } from 'react-router'
import {
  EXCLUSIVE_LOCKS,
  LICENSE_TITLE_MAX,
  PLATFORM_ARCHITECTURES,
  VALIDITY_UNITS,
  checkStaffValidity,
  enabledLockOptions,
  staffFormProduct,
  staffLicenseBody,
  type LockOption,
  type StaffLicenseBody,
  type ValidityUnit,
} from '@portal/domain'
import { useProfile } from '../../../api/profile.ts'
import { PageTitle } from '../../../components/PageTitle.tsx'
import { RequestError } from '../../../lib/api-client.ts'
import { paths } from '../../../config/paths.ts'
import { createCustomLicenses, useFaceComponents, useFaceVersions } from '../api/staff.ts'

type Variant = 'perpetual' | 'subscription'

const LOCK_LABELS: Record<LockOption, string> = {
  hardware: 'Hardware (device request file)',
  ios_app_id: 'iOS app id',
  android_app_id: 'Android app id',
  usb_token: 'USB token',
  platforms: 'Platforms',
}

const digits = (v: string) => v.replace(/\D+/g, '')

/** Staff: create custom Face SDK licenses for a client by e-mail (perpetual or subscription). */
export function StaffLicensePage({ variant }: { variant: Variant }) {
  const navigate = useNavigate()
  const staff = useProfile().data?.client_info.is_staff
  const versions = useFaceVersions()
  const components = useFaceComponents()
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
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const enabled = enabledLockOptions(locks)

  if (staff === false) {
    return (
      <>
        <PageTitle>Custom licenses</PageTitle>
        <Alert color="red" title="Staff only">
          Creating custom licenses needs staff rights. Ask an administrator to grant them with `npm run portal -- staff:grant your@e-mail`.
        </Alert>
      </>
    )
  }

  const toggleLock = (lock: LockOption, checked: boolean) => setLocks((l) => (checked ? [...l, lock] : l.filter((x) => x !== lock)))

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
        license_content: Object.fromEntries(Object.entries(content).filter(([, v]) => v !== '').map(([k, v]) => [k, Number(v)])),
        online: online === 'online',
        desktop_gpu_support: gpu,
        ...(xml.trim() ? { xml_config: xml } : {}),
      },
      custom_tags: customTags,
    }
    const parsed = staffLicenseBody.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      return setResult({ ok: false, text: `${issue.path.join('.') || 'form'}: ${issue.message.replace(/_/g, ' ')}` })
    }
    if (checkStaffValidity(parsed.data.config)) return setResult({ ok: false, text: 'A subscription needs a validity period' })
    setBusy(true)
    try {
      const res = await createCustomLicenses(body as StaffLicenseBody)
      setResult({ ok: true, text: `Added ${res.licenses.length} license(s).` })
    } catch (err) {
      setResult({ ok: false, text: err instanceof RequestError ? err.message : 'Something went wrong, please try again later.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <PageTitle>Custom licenses</PageTitle>
      <Tabs value={variant} onChange={(v) => navigate(v === 'subscription' ? paths.staffSubscription : paths.staffPerpetual)}>
        <Tabs.List>
          <Tabs.Tab value="perpetual">Perpetual custom license</Tabs.Tab>
          <Tabs.Tab value="subscription">Custom subscription license</Tabs.Tab>
        </Tabs.List>
        {(['perpetual', 'subscription'] as const).map((v) => (
          <Tabs.Panel key={v} value={v} pt="md">
            {v === variant && (
      <Card withBorder padding="lg">
        <form onSubmit={submit} noValidate aria-label="Create custom licenses">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="Title" value={title} maxLength={LICENSE_TITLE_MAX} onChange={(e) => setTitle(e.currentTarget.value)} required />
              <TextInput label="User e-mail" type="email" value={email} maxLength={150} onChange={(e) => setEmail(e.currentTarget.value)} required />
              <TextInput label="Count" inputMode="numeric" value={count} maxLength={30} onChange={(e) => setCount(digits(e.currentTarget.value))} required />
            </SimpleGrid>
            <Radio.Group label="License type" value={online} onChange={(v) => setOnline(v as 'online' | 'offline')}>
              <Group mt={4}>
                <Radio value="online" label="Online" />
                <Radio value="offline" label="Offline" />
              </Group>
            </Radio.Group>
            <div role="group" aria-labelledby="locks-label">
              <Text id="locks-label" size="sm" fw={500} mb={4}>
                Locking criteria
              </Text>
              <Stack gap="xs">
                {[...EXCLUSIVE_LOCKS, 'platforms' as const].map((lock) => (
                  <Group key={lock} gap="sm" align="center">
                    <Checkbox label={LOCK_LABELS[lock]} checked={locks.includes(lock)} disabled={!enabled.has(lock)} onChange={(e) => toggleLock(lock, e.currentTarget.checked)} />
                    {lock === 'ios_app_id' && locks.includes(lock) && <TextInput aria-label="iOS app id" size="xs" value={iosId} onChange={(e) => setIosId(e.currentTarget.value)} maxLength={256} />}
                    {lock === 'android_app_id' && locks.includes(lock) && <TextInput aria-label="Android app id" size="xs" value={androidId} onChange={(e) => setAndroidId(e.currentTarget.value)} maxLength={256} />}
                  </Group>
                ))}
                {locks.includes('platforms') && (
                  <MultiSelect label="Platforms and architectures" data={[...PLATFORM_ARCHITECTURES]} value={platforms} onChange={setPlatforms} searchable />
                )}
              </Stack>
            </div>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label="Max SDK version"
                placeholder="Any version"
                data={(versions.data?.facesdk_versions ?? []).map((v) => ({ value: v.version, label: v.is_default ? `${v.version} (current)` : v.version }))}
                value={maxVersion}
                onChange={setMaxVersion}
                clearable
              />
              <NumberInput label="Validity" description={variant === 'perpetual' ? 'Empty: never expires' : undefined} value={validity} onChange={setValidity} min={1} allowDecimal={false} allowNegative={false} />
              <Select label="Unit" data={Object.keys(VALIDITY_UNITS)} value={unit} onChange={(v) => v && setUnit(v as ValidityUnit)} allowDeselect={false} />
            </SimpleGrid>
            <div>
              <Title order={2} size="h5" mb="xs">
                License content
              </Title>
              <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }}>
                {(components.data?.components ?? []).filter((c) => c !== 'desktop_gpu_support').map((c) => (
                  <TextInput key={c} label={c.replace(/_/g, ' ')} inputMode="numeric" value={content[c] ?? ''} onChange={(e) => setContent((x) => ({ ...x, [c]: digits(e.currentTarget.value) }))} maxLength={9} />
                ))}
              </SimpleGrid>
            </div>
            <Checkbox label="GPU acceleration" checked={gpu} onChange={(e) => setGpu(e.currentTarget.checked)} />
            <Textarea label="XML config" autosize minRows={3} value={xml} onChange={(e) => setXml(e.currentTarget.value)} />
            <Group justify="space-between">
              <Text role="status" c={result?.ok ? 'green.8' : 'red.8'} data-testid="staff-result">
                {result?.text}
              </Text>
              <Button type="submit" loading={busy}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  )
}
