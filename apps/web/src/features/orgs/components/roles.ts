import type { TFunction } from 'i18next'
import type { Role } from '@portal/domain'

/** A role in words (the English text is the i18next key). */
export function roleLabel(role: Role, t: TFunction): string {
  switch (role) {
    case 'owner':
      return t('Owner')
    case 'billing':
      return t('Billing')
    case 'developer':
      return t('Developer')
    case 'viewer':
      return t('Viewer')
  }
}

/** What each role may do, in a line. */
export function roleHint(role: Role, t: TFunction): string {
  switch (role) {
    case 'owner':
      return t('Everything, members included')
    case 'billing':
      return t('Balance, purchases and payment documents; sees licenses')
    case 'developer':
      return t('Licenses, keys, activations and devices; no money')
    case 'viewer':
      return t('Reads everything, changes nothing')
  }
}
