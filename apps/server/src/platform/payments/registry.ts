import { EXTERNAL_PAYMENT_SOURCES, type ExternalPaymentSource, type PaymentProviderName } from '@portal/domain'
import type { Config } from '../config.ts'
import { PaymentUnavailable, type PaymentProvider } from './port.ts'

/** The adapters the app could build from its configuration (a real one only when its keys are set). */
export interface PaymentAdapters {
  sandbox?: PaymentProvider
  stripe?: PaymentProvider
  paypal?: PaymentProvider
}

export interface PaymentProviders {
  /** the adapter serving a source; throws PaymentUnavailable when none may */
  forSource(source: ExternalPaymentSource): PaymentProvider
  /** an adapter by name (webhooks name theirs in the path) */
  byName(name: PaymentProviderName): PaymentProvider | undefined
  /** which adapter serves each source, for the start banner */
  describe(): Record<ExternalPaymentSource, PaymentProviderName | 'unavailable'>
}

/** The sandbox lets anyone who reaches it mark a checkout paid: in production only when PAYMENTS_SANDBOX=1 says so. */
export const sandboxAllowed = (config: Pick<Config, 'NODE_ENV' | 'PAYMENTS_SANDBOX'>) => config.NODE_ENV !== 'production' || config.PAYMENTS_SANDBOX === '1'

/**
 * Chooses the adapter per source. `auto` takes the real provider when it was built (its keys are
 * set) and the sandbox otherwise; naming one forces it. A source no allowed adapter serves is
 * unavailable: its calls answer external_payments_unavailable.
 */
export function selectPaymentProviders(
  config: Pick<Config, 'NODE_ENV' | 'PAYMENTS_SANDBOX' | 'PAYMENTS_CARD_PROVIDER' | 'PAYMENTS_PAYPAL_PROVIDER'>,
  adapters: PaymentAdapters,
): PaymentProviders {
  const sandbox = sandboxAllowed(config) ? adapters.sandbox : undefined
  const pick = (setting: string, real: PaymentProvider | undefined) => {
    if (setting === 'sandbox') return sandbox
    if (setting === 'auto') return real ?? sandbox
    return real
  }
  const bySource: Record<ExternalPaymentSource, PaymentProvider | undefined> = {
    stripe: pick(config.PAYMENTS_CARD_PROVIDER, adapters.stripe),
    paypal: pick(config.PAYMENTS_PAYPAL_PROVIDER, adapters.paypal),
  }
  const byName: Partial<Record<PaymentProviderName, PaymentProvider>> = { ...adapters, sandbox }
  return {
    forSource(source) {
      return bySource[source] ?? raise(new PaymentUnavailable(`no payment provider serves ${source}`))
    },
    byName: (name) => byName[name],
    describe: () =>
      Object.fromEntries(EXTERNAL_PAYMENT_SOURCES.map((s) => [s, bySource[s]?.name ?? 'unavailable'])) as Record<
        ExternalPaymentSource,
        PaymentProviderName | 'unavailable'
      >,
  }
}

function raise(err: Error): never {
  throw err
}
