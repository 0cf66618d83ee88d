import { useCallback, useEffect, useLayoutEffect, useState } from 'react'
import { Button, FocusTrap, Group, Paper, Portal, Text, Title } from '@mantine/core'
import { useWindowEvent } from '@mantine/hooks'
import { useTranslation } from 'react-i18next'
import { TOUR_STEPS } from '@portal/domain'
import classes from './tour.module.css'

/** The element a step points at: its target when it is shown, else its fallback, else none. */
function targetOf(step: (typeof TOUR_STEPS)[number]): HTMLElement | null {
  for (const name of [step.target, step.fallback]) {
    if (!name) continue
    const el = document.querySelector<HTMLElement>(`[data-tour="${name}"]`)
    if (!el || el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue
    // the collapsed side menu is moved out of the window, not hidden: off-screen counts as hidden
    const r = el.getBoundingClientRect()
    if (r.width > 0 && (r.right <= 0 || r.left >= window.innerWidth)) continue
    return el
  }
  return null
}

interface Box {
  top: number
  left: number
  width: number
  height: number
}

const CARD_WIDTH = 320
const GAP = 12

/** Where the card goes: beside the element when there is room (right, then below), else centred. */
function placement(box: Box | null): React.CSSProperties {
  const vw = window.innerWidth
  const vh = window.innerHeight
  if (!box) return { top: Math.max(16, vh / 2 - 120), left: Math.max(16, (vw - CARD_WIDTH) / 2) }
  if (box.left + box.width + GAP + CARD_WIDTH <= vw - 8) return { top: Math.min(Math.max(8, box.top), vh - 260), left: box.left + box.width + GAP }
  const below = box.top + box.height + GAP
  return { top: below + 240 <= vh ? below : Math.max(8, box.top - 250), left: Math.min(Math.max(8, box.left), vw - CARD_WIDTH - 8) }
}

/**
 * The 4-step onboarding tour: a card beside the element each step explains, that element ringed.
 * Keyboard: the card holds the focus (Tab cycles its buttons), arrows go back and on, Escape ends it
 * wherever the focus is (the card takes it a moment after it opens, and a key pressed before then
 * must not be lost).
 */
export function OnboardingTour({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const [index, setIndex] = useState(0)
  const [box, setBox] = useState<Box | null>(null)
  const step = TOUR_STEPS[index]!
  const last = index === TOUR_STEPS.length - 1

  const measure = useCallback(() => {
    const el = targetOf(step)
    if (!el) return setBox((b) => (b === null ? b : null))
    const r = el.getBoundingClientRect()
    setBox((b) =>
      b && b.top === r.top && b.left === r.left && b.width === r.width && b.height === r.height
        ? b
        : { top: r.top, left: r.left, width: r.width, height: r.height },
    )
  }, [step])

  useLayoutEffect(() => {
    if (!opened) return
    const el = targetOf(step)
    el?.scrollIntoView?.({ block: 'nearest' })
    measure()
    window.addEventListener('resize', measure)
    window.addEventListener('scroll', measure, true)
    // layout moves without events too (the side menu sliding away as the window narrows): look again
    const timer = setInterval(measure, 250)
    document.addEventListener('transitionend', measure, true)
    return () => {
      clearInterval(timer)
      document.removeEventListener('transitionend', measure, true)
      window.removeEventListener('resize', measure)
      window.removeEventListener('scroll', measure, true)
    }
  }, [opened, step, measure])

  useEffect(() => {
    if (opened) setIndex(0)
  }, [opened])

  useWindowEvent('keydown', (e) => {
    if (opened && e.key === 'Escape') onClose()
  })

  if (!opened) return null
  const close = () => onClose()
  const keys = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowRight' && !last) setIndex(index + 1)
    else if (e.key === 'ArrowLeft' && index > 0) setIndex(index - 1)
  }

  return (
    <Portal>
      <div className={classes.backdrop} aria-hidden onClick={close} />
      {box && <div className={classes.ring} aria-hidden style={{ top: box.top - 6, left: box.left - 6, width: box.width + 12, height: box.height + 12 }} />}
      <FocusTrap active>
        <Paper
          role="dialog"
          aria-modal="true"
          aria-labelledby="tour-title"
          aria-describedby="tour-text"
          className={classes.card}
          style={{ ...placement(box), width: CARD_WIDTH }}
          shadow="lg"
          p="md"
          withBorder
          onKeyDown={keys}
          data-testid="onboarding-tour"
        >
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {t('Step {{n}} of {{total}}', { n: index + 1, total: TOUR_STEPS.length })}
          </Text>
          <Title order={2} size="h4" id="tour-title" mt={4}>
            {t(step.title)}
          </Title>
          <Text size="sm" id="tour-text" mt="xs">
            {t(step.text)}
          </Text>
          {!box && step.fallback === null && (
            <Text size="xs" c="dimmed" mt="xs">
              {t('Open a product dashboard to see this part.')}
            </Text>
          )}
          <Group justify="space-between" mt="md" wrap="nowrap">
            <Button variant="subtle" color="gray" size="compact-sm" onClick={close}>
              {t('Skip the tour')}
            </Button>
            <Group gap="xs" wrap="nowrap">
              {index > 0 && (
                <Button variant="default" size="compact-sm" onClick={() => setIndex(index - 1)}>
                  {t('Back')}
                </Button>
              )}
              <Button size="compact-sm" onClick={() => (last ? close() : setIndex(index + 1))} data-autofocus>
                {last ? t('Done') : t('Next')}
              </Button>
            </Group>
          </Group>
        </Paper>
      </FocusTrap>
    </Portal>
  )
}
