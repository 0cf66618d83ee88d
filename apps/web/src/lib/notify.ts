import { notifications } from '@mantine/notifications'

/**
 * Success feedback for an action the user took: a notification, which Mantine renders with
 * role="alert", so a screen reader announces it as well.
 */
export function notifySuccess(title: string, message?: string) {
  // messages may carry an e-mail or a title of any length: they wrap rather than overflow
  notifications.show({ color: 'green', title, message: message ?? '', autoClose: 6000, className: 'portal-wrap-anywhere' })
}

/** Feedback on something that did not happen (a payment left unfinished): announced the same way, in yellow. */
export function notifyNotice(title: string, message?: string) {
  notifications.show({ color: 'yellow', title, message: message ?? '', autoClose: 8000, className: 'portal-wrap-anywhere' })
}
