import { useEffect, useState } from 'react'
import { Button, Checkbox, Divider, Drawer, Group, NativeSelect, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import {
  CUSTOM_FACE_COMPONENTS,
  CUSTOM_FACE_PRODUCT,
  DATABASE_SIZES,
  MONTH_SECONDS,
  contentOf,
  customFacePriceCents,
  type CustomFaceComponent,
  type CustomFaceSelection,
} from '@portal/domain'
import { formatCents, formatCount } from '../../../lib/format.ts'
import { paths } from '../../../config/paths.ts'
import type { ShownPriceRow } from '../api/prices.ts'
import { basketStore } from './basket-store.ts'
import { readDraft, saveDraft } from './custom-draft.ts'

/** Section 9: the UI delay, the side panel's open and close animation. */
export const DRAWER_MS = 250

const COMPONENT_LABELS: Record<CustomFaceComponent, string> = {
  detector: 'Face detector',
  processor: 'Processor',
  matcher: 'Matcher (face search)',
  age_gender_estimator: 'Age and gender estimator',
  emotions_estimator: 'Emotions estimator',
  age_gender_emotions_estimator: 'Age, gender and emotions estimator',
  liveness_2d_estimator: '2D liveness estimator',
  depth_liveness_estimator: 'Depth liveness estimator',
  video_client: 'Video client',
  video_client_ext: 'Video client extension',
  video_engine_light: 'Video engine light',
  desktop_gpu_support: 'Desktop GPU acceleration',
}

/** What one component adds to the month: the matcher at the chosen database's tier, the extension its base plus that tier's. */
const componentPrice = (c: CustomFaceComponent, draft: CustomFaceSelection, rows: readonly ShownPriceRow[]) =>
  customFacePriceCents({ components: [c], database: draft.database }, rows)

/**
 * The custom Face SDK subscription builder (section 2): a side panel over the plan cards; Escape
 * closes it with the 250 ms animation; the draft stays in local storage until a purchase.
 */
export function CustomBuilder({ rows, loading }: { rows: readonly ShownPriceRow[]; loading: boolean }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [opened, setOpened] = useState(true)
  const [next, setNext] = useState<string>(paths.licenseSelection('face'))
  const [draft, setDraft] = useState<CustomFaceSelection>(readDraft)
  useEffect(() => saveDraft(draft), [draft])

  const total = customFacePriceCents(draft, rows)
  const toggle = (c: CustomFaceComponent, on: boolean) =>
    setDraft((d) => ({ ...d, components: CUSTOM_FACE_COMPONENTS.filter((x) => (x === c ? on : d.components.includes(x))) }))
  const proceed = () => {
    basketStore.add('face', { product: CUSTOM_FACE_PRODUCT, license_expire_delta: MONTH_SECONDS, license_content: contentOf(draft) as Record<string, number> })
    setNext(paths.checkout('face'))
    setOpened(false)
  }

  return (
    <Drawer
      opened={opened}
      onClose={() => setOpened(false)}
      onExitTransitionEnd={() => void navigate(next)}
      position="right"
      size="md"
      title={t('Build your own Face SDK subscription')}
      transitionProps={{ duration: DRAWER_MS }}
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('Choose the size of your face database and the components you need; the price is per license and month.')}
        </Text>
        <NativeSelect
          label={t('Face database size')}
          description={t('How many faces the matcher searches. It prices the matcher and the video client extension.')}
          data={DATABASE_SIZES.map((s) => ({
            value: String(s),
            label: s === 0 ? t('No face database (1:1 verification)') : t('Up to {{size}} faces', { size: formatCount(s) }),
          }))}
          value={String(draft.database)}
          onChange={(e) => {
            const database = Number(e.currentTarget.value)
            setDraft((d) => ({ ...d, database }))
          }}
        />
        <Stack gap="xs" role="group" aria-label={t('Components')}>
          {CUSTOM_FACE_COMPONENTS.map((c) => {
            const price = componentPrice(c, draft, rows)
            return (
              <Checkbox
                key={c}
                checked={draft.components.includes(c)}
                onChange={(e) => toggle(c, e.currentTarget.checked)}
                disabled={price === null}
                label={t(COMPONENT_LABELS[c])}
                description={loading ? t('Loading prices…') : price === null ? t('Not for sale') : t('{{amount}} a month', { amount: formatCents(price) })}
              />
            )
          })}
        </Stack>
        <Divider />
        <Group justify="space-between">
          <Text fw={600}>{t('Total a month')}</Text>
          <Text fw={700} data-testid="custom-total">
            {loading || total === null ? '—' : formatCents(total)}
          </Text>
        </Group>
        <Button onClick={proceed} disabled={loading || total === null || total <= 0}>
          {t('Continue to checkout')}
        </Button>
      </Stack>
    </Drawer>
  )
}
