import { useEffect, useState } from 'react'
import { Alert, Anchor, Button, Card, Center, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { Trans, useTranslation } from 'react-i18next'
import { Link, Navigate, useLocation, useParams } from 'react-router'
import { z } from 'zod'
import {
  GENERIC_MESSAGES,
  LICENSE_TITLE_MAX,
  OS_TYPES,
  PLATFORM_TITLES,
  SUPPORT_SERVICE,
  aiUpgradeSoldAs,
  canSplit,
  groupOnHold,
  newLicenseBody,
  productRecord,
  productTitle,
  upgradePriceCents,
  type GroupView,
  type LicenseView,
  type Platform,
} from '@portal/domain'
import { useGroups } from '../../../api/groups.ts'
import { useNewLicenseFromGroup } from '../../../api/group-mutations.ts'
import { FormError } from '../../../components/FormError.tsx'
import { SupportUpgradeMail } from '../../../components/SupportUpgradeMail.tsx'
import { notifySuccess } from '../../../lib/notify.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { errorStore } from '../../../lib/error-store.ts'
import { paths, supportUrl } from '../../../config/paths.ts'
import { formatCents } from '../../../lib/format.ts'
import { priceRowsOf } from '../../../lib/prices.ts'
import { useProfile } from '../../../lib/use-profile.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/**
 * /{platform}/dashboard/{groupId}/pre-info/: a group slot without a license yet. Nuitrack has its own
 * screen; the other platforms share one.
 */
export function PreInfoPage() {
  const { t } = useTranslation()
  const { platform, id = '' } = useParams() as { platform: Platform; id: string }
  const holdedFlag = new URLSearchParams(useLocation().search).has('holded')
  const groups = useGroups()
  const numeric = /^\d+$/.test(id)
  const group = groups.data?.groups.find((g) => g.id === Number(id))
  // on hold: the dashboard's ?holded (this slot is held), or the group says an upgrade holds some of its licenses
  const holded = holdedFlag || (group !== undefined && groupOnHold(group, new Date()))
  // the license generated here: its info page wins over everything this page would say about
  // the group, whose refetched limit may well be 0 now (the last license of a group)
  const [generated, setGenerated] = useState<LicenseView | null>(null)
  const missing = !generated && (!numeric || groups.isError || (groups.isSuccess && (!group || (group.limit < 1 && !(holded && group.holded_limit > 0)))))

  useEffect(() => {
    if (missing) errorStore.show({ title: GENERIC_MESSAGES.error_title, message: t('This group has no license available to generate'), kind: 'error' })
  }, [missing, t])

  if (generated) return <Navigate to={paths.licenseInfo(generated.type, generated.id)} replace state={{ fromGroup: true }} />
  if (missing) return <Navigate to={paths.dashboard(platform)} replace />
  if (!group) {
    return (
      <Center py="xl">
        <Spinner label={t('Loading the group')} />
      </Center>
    )
  }
  if (group.type !== platform) return <Navigate to={paths.preInfo(group.type, group.id, holdedFlag)} replace />
  return platform === 'nuitrack' ? (
    <NuitrackPreInfo group={group} holded={holded} onGenerated={setGenerated} />
  ) : (
    <SharedPreInfo group={group} platform={platform} holded={holded} onGenerated={setGenerated} />
  )
}

type OnGenerated = (license: LicenseView) => void

/**
 * The group's Pro → AI upgrade (upgradeable.toAI): self-service through the upgrade-y checkout, or
 * through support. Disabled while the group is on hold.
 */
function UpgradeEntry({ group, platform, holded }: { group: GroupView; platform: Platform; holded: boolean }) {
  const { t } = useTranslation()
  const profile = useProfile()
  const to = productRecord(group.product)?.upgrade?.to
  if (!group.upgradeable.toAI || !to) return null
  // what one license's upgrade costs, as the license screen says it
  const soldAs = aiUpgradeSoldAs(group.product)
  const cents = soldAs && profile.data ? upgradePriceCents(soldAs, priceRowsOf(profile.data.prices)) : null
  const subject = t('Upgrade of group #{{id}} to Nuitrack AI', { id: group.id })
  const body = t('Please upgrade the licenses of my group "{{title}}" (#{{id}}) from Nuitrack Pro to Nuitrack AI.', { title: group.title, id: group.id })
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="upgrade-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4" id="upgrade-title">
          {t('Upgrade to AI')}
        </Title>
        <Text size="sm">
          {t('Upgrade licenses of this group to {{product}}: improved tracking, object detection and pose recognition.', { product: productTitle(to) })}
        </Text>
        {group.upgradeable.toAI === 'self' ? (
          holded || group.limit < 1 ? (
            <Button disabled>{t('Upgrade to AI')}</Button>
          ) : (
            <Button component={Link} to={paths.upgradeCheckout(platform, 'upgrade-y', 'pro', group.id)}>
              {t('Upgrade to AI')}
            </Button>
          )
        ) : (
          <>
            {cents !== null && (
              <Text size="sm" data-testid="upgrade-cost">
                {t('The upgrade to Nuitrack AI costs {{price}} a license.', { price: formatCents(cents) })}
              </Text>
            )}
            <SupportUpgradeMail subject={subject} body={body} onHold={holded} />
            <Text size="sm">
              <Trans
                defaults="Questions first? <support>contact support</support>."
                components={{ support: <Anchor href={supportUrl(SUPPORT_SERVICE[platform])} target="_blank" rel="noopener noreferrer" inherit /> }}
              />
            </Text>
          </>
        )}
      </Stack>
    </Card>
  )
}

/** The new license's title as typed: blank is no title (the server names it), else the title rule. */
const generateForm = z.object({
  title: z
    .string()
    .transform((v) => v.trim() || undefined)
    .pipe(newLicenseBody.shape.title),
})

function GenerateForm({ group, holded, onGenerated }: { group: GroupView; holded: boolean; onGenerated: OnGenerated }) {
  const { t } = useTranslation()
  const newLicense = useNewLicenseFromGroup()
  const form = useSchemaForm(generateForm, { title: '' })
  const submit = form.submit(async ({ title }) => {
    // the hook puts the answer into the cache, so the info page opens on it
    const license = await newLicense.mutateAsync({ id: group.id, title })
    onGenerated(license)
    notifySuccess(group.type === 'nuitrack' ? t('Activation key generated') : t('License generated'), t('{{title}} is ready.', { title: license.title }))
  })
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('Title of the new license (optional)')}
          placeholder={`${productTitle(group.product)} #…`}
          maxLength={LICENSE_TITLE_MAX + 1}
          {...form.getInputProps('title')}
        />
        <FormError message={form.formError} />
        <Group>
          <Button type="submit" loading={form.submitting} disabled={holded || group.limit < 1}>
            {t('Generate the key')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

function Facts({ group }: { group: GroupView }) {
  const { t } = useTranslation()
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {t('Product')}
        </Text>
        <Text>{productTitle(group.product)}</Text>
      </div>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {t('Available')}
        </Text>
        <Text data-testid="group-available">{t('{{available}} of {{total}}', { available: group.limit, total: group.total })}</Text>
      </div>
      {group.os_type !== null && (
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('Operating system')}
          </Text>
          <Text>{OS_TYPES[group.os_type as 0 | 1 | 2]}</Text>
        </div>
      )}
      {group.months !== null && (
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('Term')}
          </Text>
          <Text>{t('{{months}} months', { months: group.months })}</Text>
        </div>
      )}
    </SimpleGrid>
  )
}

function Back({ platform }: { platform: Platform }) {
  return (
    <Anchor component={Link} to={paths.dashboard(platform)} size="sm">
      ← {PLATFORM_TITLES[platform]}
    </Anchor>
  )
}

function NuitrackPreInfo({ group, holded, onGenerated }: { group: GroupView; holded: boolean; onGenerated: OnGenerated }) {
  const { t } = useTranslation()
  return (
    <Stack gap="lg">
      <Back platform="nuitrack" />
      <Title order={1} size="h2">
        {group.title}
      </Title>
      {holded && (
        <Alert color="orange" title={t('On hold')}>
          {t('Licenses of this group are on hold while an upgrade completes (about 15 minutes).')}
        </Alert>
      )}
      <Card withBorder padding="lg">
        <Stack>
          <Facts group={group} />
          <Text size="sm">
            {/* a group key is made only from a group that gives them (section 5): elsewhere the page does not suggest one */}
            {canSplit(group) ? (
              <Trans
                defaults="Generate an activation key for one Nuitrack device. To hand several keys to a team, make a <keys>group key</keys> instead."
                components={{ keys: <Anchor component={Link} to={paths.groupKeys} /> }}
              />
            ) : (
              t('Generate an activation key for one Nuitrack device.')
            )}
          </Text>
          <GenerateForm group={group} holded={holded} onGenerated={onGenerated} />
        </Stack>
      </Card>
      <UpgradeEntry group={group} platform="nuitrack" holded={holded} />
    </Stack>
  )
}

function SharedPreInfo({ group, platform, holded, onGenerated }: { group: GroupView; platform: Platform; holded: boolean; onGenerated: OnGenerated }) {
  const { t } = useTranslation()
  return (
    <Stack gap="lg">
      <Back platform={platform} />
      <Title order={1} size="h2">
        {group.title}
      </Title>
      {holded && (
        <Alert color="orange" title={t('On hold')}>
          {t('This license is on hold while an upgrade completes (about 15 minutes).')}
        </Alert>
      )}
      <Card withBorder padding="lg">
        <Stack>
          <Facts group={group} />
          <Text size="sm">
            {platform === 'face'
              ? t('Generate the license to get its key and license file; a device-bound license asks for the device request file next.')
              : t('Generate the license to get its key and start using the service.')}
          </Text>
          <GenerateForm group={group} holded={holded} onGenerated={onGenerated} />
        </Stack>
      </Card>
      <UpgradeEntry group={group} platform={platform} holded={holded} />
    </Stack>
  )
}
