import { Badge } from '@mantine/core'
import type { LicenseStatusName } from '@portal/domain'

const COLORS: Record<LicenseStatusName, string> = { new: 'blue', active: 'green', suspended: 'red', holded: 'orange' }
const LABELS: Record<LicenseStatusName, string> = { new: 'New', active: 'Active', suspended: 'Suspended', holded: 'On hold' }

export function StatusBadge({ status }: { status: LicenseStatusName }) {
  return (
    <Badge color={COLORS[status]} variant="light" c="dark.8">
      {LABELS[status]}
    </Badge>
  )
}

/** Dates like "Nov 22, 2026" (section 9). */
export function formatDate(d: string | null | undefined): string {
  if (!d) return '—'
  return new Date(d).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric' })
}
