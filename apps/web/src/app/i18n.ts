import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { LIMITS, allMessages, messageFor } from '@portal/domain'
import { HISTORY_TEXTS } from '../features/activity/components/history-texts.ts'

/**
 * English resources: every message key and error code of the domain (codes are keys), the
 * `max_length_error:N` keys for every limit, and the few UI texts with placeholders. Other UI
 * texts use their English text as the key (key and namespace separators are off).
 */
const maxLengthKeys = Object.fromEntries([...new Set(Object.values(LIMITS))].map((n) => [`max_length_error:${n}`, messageFor(`max_length_error:${n}`)]))

const ui: Record<string, string> = {
  'confirm.sent_to': 'We sent a confirmation link to {{email}}.',
  'email_change.pending': 'We sent a confirmation link to {{email}}; the change takes effect once you confirm it.',
  'email_change.done': 'Your e-mail is now {{email}}.',
  'email_revert.done': 'Your e-mail is {{email}} again.',
  'account.switched': 'Your account is now {{type}}.',
  'balance.owed': 'Owed {{amount}}: the next top-up pays it',
  'license.suspended_because': 'This license is suspended: {{reason}}. Contact us if you think this is a mistake.',
  'credit_note.corrects': 'Corrects {{invoice}}',
  ...HISTORY_TEXTS,
}

export const resources = {
  en: { translation: { ...allMessages(), ...maxLengthKeys, ...ui } },
}

export function initI18n() {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      lng: 'en',
      fallbackLng: 'en',
      resources,
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    })
  }
  return i18next
}
