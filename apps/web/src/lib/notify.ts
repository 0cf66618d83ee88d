import { notifications } from '@mantine/notifications'

/**
 * Success feedback for an action the user took: a notification, which Mantine renders with
 * role="alert", so a screen reader announces it as well.
 */
export function notifySuccess(title: string, message?: string) {
  notifications.show({ color: 'green', title, message: message ?? '', autoClose: 6000 })
}
