import type { ChangelogEntry } from '@portal/domain'

/** Release notes shown in the what's-new dialog, newest first. */
export const CHANGELOG: ChangelogEntry[] = [
  {
    version: '1.1.0',
    date: '2026-12-06',
    changes: [
      'Generate all the keys of a purchase in one step, from the purchase screen or the dashboard',
      'A group key activates devices: each device gets a license of its own from the key',
      'Refunds, credit notes and payments held for review on the payment documents',
      'The activity history export writes its details in words',
    ],
  },
  {
    version: '1.0.0',
    date: '2026-11-22',
    changes: [
      'New customer portal: sign-in, registration and account management in one place',
      'Switch between personal and corporate accounts at any time',
      'E-mail changes take effect only after you confirm the new address',
    ],
  },
  {
    version: '0.9.0',
    date: '2026-10-15',
    changes: ['Nuitrack AI subscriptions, monthly and annual', 'Face SDK all-in-one terms of 1, 3, 6 and 12 months'],
  },
  {
    version: '0.8.0',
    date: '2026-09-01',
    changes: ['Face Machine 30-day trial', 'Nuitrack Analytics 7-day trial'],
  },
]

/** Face SDK releases a custom license can be capped at. */
export const FACE_SDK_VERSIONS = [
  { version: '3.24.0', is_default: true, released: '2026-10-01' },
  { version: '3.23.1', is_default: false, released: '2026-07-14' },
  { version: '3.22.0', is_default: false, released: '2026-03-02' },
  { version: '3.21.2', is_default: false, released: '2025-11-20' },
]
