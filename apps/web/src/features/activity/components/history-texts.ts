/**
 * The history's texts with placeholders, which describe.ts's lines use (i18n.ts adds them to the
 * English resources). Apart from describe.ts, which only the history screens need: i18n.ts is in the
 * entry, and the build puts a module whole into one chunk.
 */
export const HISTORY_TEXTS: Record<string, string> = {
  'history.granted': '{{count}} × {{product}} added to your licenses',
  'history.created_trial': 'Free trial started ({{product}})',
  'history.created_staff': 'Created by our team ({{product}})',
  'history.created': 'Created ({{product}})',
  'history.generated_named': 'Generated from the group “{{group}}”',
  'history.generated_group_key': 'Generated from the group key “{{group}}” for a device that activated with it',
  'history.renamed': 'Renamed from “{{from}}” to “{{to}}”',
  'history.activated': 'Activated on device {{serial}}',
  'history.activated_sensor': 'Activated on device {{serial}} ({{sensor}})',
  'history.activated_usb': 'Activated on USB token {{serial}}',
  'history.released': 'Device {{device}} released',
  'history.released_sdk': 'Device {{device}} released by the SDK',
  'history.upgraded': 'Upgraded from {{from}} to {{to}}',
  'history.upgraded_trial': 'Upgraded from the trial to {{to}}',
  'history.upgraded_group': '{{count}} licenses upgraded from {{from}} to {{to}}',
  'history.paid': 'Paid {{amount}}: {{what}}',
  'history.renewed': 'Renewed for {{amount}}',
  'history.renewed_until': 'Renewed for {{amount}}, until {{date}}',
  'history.cancelled_until': 'Subscription cancelled; it stays active until {{date}}',
  'history.reactivated': 'Subscription reactivated for {{amount}}',
  'history.suspended': 'Suspended: {{reason}}',
  'history.restored': 'Restored: {{reason}}',
  'history.group_key_created': 'Group key “{{title}}” made with {{count}} {{product}} licenses',
  'history.group_key_resized': 'Group key “{{title}}” resized from {{from}} to {{to}} available licenses',
}
