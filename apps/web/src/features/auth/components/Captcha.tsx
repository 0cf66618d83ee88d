import { useEffect, useState } from 'react'
import { Checkbox, Group, Loader, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { CaptchaChallenge } from '@portal/domain'
import { getCaptchaChallenge } from '../api/analytics-signup.ts'

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** Finds the number behind the challenge; the work is what keeps bots out. */
async function solve(c: CaptchaChallenge): Promise<string | null> {
  for (let n = 0; n <= c.maxnumber; n++) {
    if ((await sha256Hex(c.salt + n)) === c.challenge) {
      return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature }))
    }
  }
  return null
}

/**
 * The self-hosted proof-of-work captcha: ticking the box solves a challenge in the browser and hands
 * the token up. `resetKey` changing (after the server refused a token) starts over.
 */
export function Captcha({ onToken, resetKey }: { onToken: (token: string | null) => void; resetKey: number }) {
  const { t } = useTranslation()
  const [state, setState] = useState<'idle' | 'working' | 'done' | 'unavailable'>('idle')
  useEffect(() => {
    setState('idle')
    onToken(null)
  }, [resetKey, onToken])
  const start = async () => {
    setState('working')
    try {
      const token = await solve(await getCaptchaChallenge())
      if (!token) throw new Error('unsolved')
      onToken(token)
      setState('done')
    } catch {
      setState('unavailable')
    }
  }
  return (
    <div>
      <Group gap="sm">
        <Checkbox
          label={t("I'm not a robot")}
          description={state === 'done' ? t('Verified') : undefined}
          checked={state === 'done'}
          disabled={state === 'working'}
          onChange={() => (state === 'idle' || state === 'unavailable' ? void start() : undefined)}
        />
        {state === 'working' && <Loader size="xs" aria-label={t('Checking')} />}
      </Group>
      {state === 'unavailable' && (
        <Text size="sm" c="red.8" role="alert">
          {t('The captcha is unavailable right now. Please try again in a moment.')}
        </Text>
      )}
    </div>
  )
}
