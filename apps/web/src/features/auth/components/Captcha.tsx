import { useCallback, useEffect, useRef, useState } from 'react'
import { Button, Checkbox, Group, Modal, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { solveChallenge } from 'altcha-lib/v1'
import type { CaptchaChallenge } from '@portal/domain'
import { getCaptchaChallenge } from '../api/analytics-signup.ts'
import { Spinner } from '../../../components/Spinner.tsx'

/** Finds the number behind the challenge (altcha-lib's v1 protocol, which the server's challenges use; Web Crypto); the work is what keeps bots out. */
async function solve(c: CaptchaChallenge): Promise<string | null> {
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise
  if (!solution) return null
  return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }))
}

interface Grecaptcha {
  render(el: HTMLElement, opts: { sitekey: string; callback: (token: string) => void; 'expired-callback': () => void; 'error-callback': () => void }): number
  reset(id?: number): void
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha
  }
}

export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?render=explicit'
const SCRIPT_TIMEOUT_MS = 10_000

/** Loads Google's script (once at a time); rejects when it cannot load (blocked, offline) within 10 seconds. */
let loading: Promise<Grecaptcha> | null = null
export function loadRecaptcha(): Promise<Grecaptcha> {
  if (window.grecaptcha?.render) return Promise.resolve(window.grecaptcha)
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = RECAPTCHA_SCRIPT
    script.async = true
    const timer = setTimeout(() => reject(new Error('reCAPTCHA did not load')), SCRIPT_TIMEOUT_MS)
    script.onerror = () => {
      clearTimeout(timer)
      reject(new Error('reCAPTCHA did not load'))
    }
    script.onload = () => {
      const ready = () => (window.grecaptcha?.render ? (clearTimeout(timer), resolve(window.grecaptcha)) : setTimeout(ready, 50))
      ready()
    }
    document.head.appendChild(script)
  }).finally(() => {
    loading = null
  })
  return loading
}

/**
 * The captcha of the analytics registration: the self-hosted proof of work (ticking the box solves
 * a challenge in the browser), or Google reCAPTCHA when the server is configured for it. When it
 * cannot run, the captcha-unavailable dialog says so and offers to try again. `resetKey` changing
 * (after the server refused a token) starts over.
 */
export function Captcha({ onToken, resetKey }: { onToken: (token: string | null) => void; resetKey: number }) {
  const { t } = useTranslation()
  const [state, setState] = useState<'idle' | 'working' | 'done' | 'unavailable'>('idle')
  const [siteKey, setSiteKey] = useState<string | null>(null)
  const [dialog, setDialog] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  const widget = useRef<number | null>(null)

  const unavailable = useCallback(() => {
    setState('unavailable')
    setDialog(true)
  }, [])

  // which captcha the server wants: reCAPTCHA renders at once; the proof of work waits for the box
  const [kindKnown, setKindKnown] = useState(false)
  useEffect(() => {
    setState('idle')
    onToken(null)
    let live = true
    getCaptchaChallenge()
      .then((c) => {
        if (!live) return
        setSiteKey(c.kind === 'recaptcha' ? c.site_key : null)
        setKindKnown(true)
      })
      .catch(() => live && (setKindKnown(true), unavailable()))
    return () => {
      live = false
    }
  }, [resetKey, onToken, unavailable])

  useEffect(() => {
    if (!siteKey || !box.current) return
    let live = true
    loadRecaptcha()
      .then((g) => {
        if (!live || !box.current) return
        if (widget.current !== null) return g.reset(widget.current)
        widget.current = g.render(box.current, {
          sitekey: siteKey,
          callback: (token) => {
            onToken(token)
            setState('done')
          },
          'expired-callback': () => {
            onToken(null)
            setState('idle')
          },
          'error-callback': unavailable,
        })
      })
      .catch(() => live && unavailable())
    return () => {
      live = false
    }
  }, [siteKey, resetKey, onToken, unavailable])

  const start = async () => {
    setState('working')
    try {
      const c = await getCaptchaChallenge()
      const token = c.kind === 'altcha' ? await solve(c) : null
      if (!token) throw new Error('unsolved')
      onToken(token)
      setState('done')
    } catch {
      unavailable()
    }
  }

  return (
    <div>
      {siteKey ? (
        <div ref={box} data-testid="recaptcha" />
      ) : (
        <Group gap="sm">
          <Checkbox
            label={t("I'm not a robot")}
            description={state === 'done' ? t('Verified') : undefined}
            checked={state === 'done'}
            disabled={state === 'working' || !kindKnown}
            onChange={() => (state === 'idle' || state === 'unavailable' ? void start() : undefined)}
          />
          {state === 'working' && <Spinner label={t('Checking')} size="xs" />}
        </Group>
      )}
      {state === 'unavailable' && !dialog && (
        <Text size="sm" c="red.8" role="alert">
          {t('The captcha is unavailable right now. Please try again in a moment.')}
        </Text>
      )}
      <Modal opened={dialog} onClose={() => setDialog(false)} title={t('The captcha is unavailable')} centered>
        <Text mb="md">
          {t('We could not show the captcha that keeps bots out of registration. Check your connection or content blockers, then try again.')}
        </Text>
        <Group justify="flex-end">
          <Button onClick={() => setDialog(false)} data-autofocus>
            {t('OK')}
          </Button>
        </Group>
      </Modal>
    </div>
  )
}
