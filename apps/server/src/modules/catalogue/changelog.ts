import type { ChangelogEntry } from '@portal/domain'

/** Release notes shown in the what's-new dialog, newest first. */
export const CHANGELOG: ChangelogEntry[] = [
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
