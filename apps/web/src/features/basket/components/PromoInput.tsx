import { Button, Group, TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { PLATFORM_TITLES, PROMO_CODE_MAX, isProduct, promoValidateBody, type Platform } from '@portal/domain'
import { formatUsd } from '../../../lib/format.ts'
import { fieldErrorOf } from '../../../lib/api-client.ts'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { validatePromo } from '../api/promo.ts'

/** The code as the validate call takes it; the product comes from the basket, not from an input. */
const promoSchema = promoValidateBody.pick({ promocode: true })

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
  const form = useSchemaForm(promoSchema, { promocode: '' })
  const code = form.values.promocode

  // not a <form>: the promo box sits inside the checkout, so Enter and the button submit it
  const apply = form.submit(async ({ promocode }) => {
    if (!product || !isProduct(product)) return
    try {
      const answer = await validatePromo(promocode, product)
      onApply({ promocode: answer.promocode, discount: answer.discount })
    } catch (err) {
      // a refusal is about the code on this platform: it says which platform
      const failure = fieldErrorOf(err)
      if (!failure) throw err
      form.setFieldError('promocode', t('{{message}} ({{platform}})', { message: failure.message, platform: PLATFORM_TITLES[platform] }))
    }
  })

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
            form.reset()
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
        {...form.getInputProps('promocode')}
        onKeyDown={(e) => e.key === 'Enter' && code.trim() !== '' && apply()}
        maxLength={PROMO_CODE_MAX}
      />
      <Button mt={25} variant="light" onClick={() => apply()} disabled={code.trim() === '' || !product} loading={form.submitting}>
        {t('Apply')}
      </Button>
    </Group>
  )
}

/** "10%" stays; a fixed amount reads as dollars. */
const discountText = (discount: string) => (discount.includes('%') ? discount : formatUsd(Number(discount)))
