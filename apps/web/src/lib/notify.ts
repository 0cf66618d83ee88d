import { notifications } from '@mantine/notifications'

/**
 * Success feedback for an action the user took: a notification, which Mantine renders with
 * role="alert", so a screen reader announces it as well.
 */
export function notifySuccess(title: string, message?: string) {
  // messages may carry an e-mail or a title of any length: they wrap rather than overflow
  notifications.show({ color: 'green', title, message: message ?? '', autoClose: 6000, className: 'portal-wrap-anywhere' })
}
