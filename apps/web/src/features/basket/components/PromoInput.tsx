import { useState } from 'react'
import { Button, Group, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { PLATFORM_TITLES, PROMO_CODE_MAX, isProduct, type Platform } from '@portal/domain'
import { formatUsd } from '../../../lib/format.ts'
import { fieldErrorOf } from '../../../lib/api-client.ts'
import { validatePromo } from '../api/promo.ts'

export interface AppliedPromo {
  promocode: string
  /** "10%" a percent, else a fixed USD amount */
  discount: string
}

/**
 * Section 4: the promo input's three states: empty (apply disabled), filled (apply active), and
 * applied (read-only, its button clears it). Applying asks the server; a refusal shows under the
 * input with the platform's name.
 */
export function PromoInput({
  platform,
  product,
  applied,
  onApply,
}: {
  platform: Platform
  /** the product the code is checked for (its platform decides) */
  product: string | null
  applied: AppliedPromo | null
  onApply: (promo: AppliedPromo | null) => void
}) {
  const { t } = useTranslation()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [checking, setChecking] = useState(false)

  const apply = async () => {
    if (!product || !isProduct(product) || code.trim() === '') return
    setChecking(true)
    setError(null)
    try {
      const answer = await validatePromo(code.trim(), product)
      onApply({ promocode: answer.promocode, discount: answer.discount })
    } catch (err) {
      const failure = fieldErrorOf(err)
      if (failure) setError(t('{{message}} ({{platform}})', { message: failure.message, platform: PLATFORM_TITLES[platform] }))
    } finally {
      setChecking(false)
    }
  }

  if (applied) {
    return (
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t('Promo code')}
          value={applied.promocode}
          readOnly
          description={t('Discount: {{discount}}', { discount: discountText(applied.discount) })}
        />
        <Button
          variant="default"
          onClick={() => {
            onApply(null)
            setCode('')
          }}
        >
          {t('Remove the code')}
        </Button>
      </Group>
    )
  }
  return (
    <Group align="flex-start" gap="xs">
      <TextInput
        label={t('Promo code')}
        value={code}
        onChange={(e) => {
          setCode(e.currentTarget.value)
          setError(null)
        }}
        onKeyDown={(e) => e.key === 'Enter' && void apply()}
        maxLength={PROMO_CODE_MAX}
        error={error}
      />
      <Button mt={25} variant="light" onClick={() => void apply()} disabled={code.trim() === '' || !product} loading={checking}>
        {t('Apply')}
      </Button>
    </Group>
  )
}

/** "10%" stays; a fixed amount reads as dollars. */
const discountText = (discount: string) => (discount.includes('%') ? discount : formatUsd(Number(discount)))
