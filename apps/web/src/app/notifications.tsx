import { Suspense, lazy, useEffect, useState } from 'react'
import { useNotifications, type NotificationsProps } from '@mantine/notifications'
import { useQueryClient } from '@tanstack/react-query'

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })))

/**
 * Mantine's notifications, whose code (with react-transition-group and react-remove-scroll) is not in
 * the first load: every notification follows a change the user made, so the code starts loading with
 * the first mutation, beside its request, and is there (the notification slides in as before) by the
 * time the answer is. A notification shown without a mutation loads it too: `notifications.show` only
 * writes Mantine's store, which this reads, and the component draws what the store holds. Once
 * loaded it stays mounted.
 */
export function LazyNotifications(props: NotificationsProps) {
  const { notifications, queue } = useNotifications()
  const client = useQueryClient()
  const [wanted, setWanted] = useState(false)
  if (!wanted && notifications.length + queue.length > 0) setWanted(true)
  useEffect(() => {
    if (wanted) return
    return client.getMutationCache().subscribe((event) => {
      if (event.type === 'added') setWanted(true)
    })
  }, [client, wanted])
  return wanted ? (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  ) : null
}
