import type { CSSProperties, ComponentPropsWithoutRef } from 'react'
import type { MantineSpacing } from '@mantine/core'

/**
 * Mantine's `Table` class names (its `Table.classes`, with the static `mantine-Table-*` names), so
 * Mantine's Table stylesheet (signed-in.css) draws these elements; PlainTable.test.tsx holds them
 * to Mantine's own.
 */
export const TABLE_CLASSES = {
  table: 'm_b23fa0ef mantine-Table-table',
  thead: 'm_b242d975 mantine-Table-thead',
  tbody: 'm_b2404537 mantine-Table-tbody',
  tr: 'm_4e7aa4fd mantine-Table-tr',
  th: 'm_4e7aa4f3 mantine-Table-th',
  td: 'm_4e7aa4ef mantine-Table-td',
} as const

const join = (base: string, className: string | undefined) => (className ? `${base} ${className}` : base)

/**
 * A table drawn as Mantine's `<Table highlightOnHover withRowBorders verticalSpacing=…>` draws it,
 * from plain elements: Mantine's Table module imports its ScrollContainer and with it ScrollArea,
 * which put 7 KB gzipped into the first load of the dashboard. Rows have borders and highlight on
 * hover; a wide table scrolls in components/TableScroll.tsx.
 */
export function PlainTable({
  verticalSpacing,
  className,
  style,
  ...rest
}: ComponentPropsWithoutRef<'table'> & { verticalSpacing: Exclude<MantineSpacing, number> }) {
  const spacing = { '--table-vertical-spacing': `var(--mantine-spacing-${verticalSpacing})` } as CSSProperties
  return <table {...rest} style={{ ...spacing, ...style }} className={join(TABLE_CLASSES.table, className)} />
}

PlainTable.Thead = function Thead({ className, ...rest }: ComponentPropsWithoutRef<'thead'>) {
  return <thead {...rest} className={join(TABLE_CLASSES.thead, className)} />
}

PlainTable.Tbody = function Tbody({ className, ...rest }: ComponentPropsWithoutRef<'tbody'>) {
  return <tbody {...rest} className={join(TABLE_CLASSES.tbody, className)} />
}

PlainTable.Tr = function Tr({ className, ...rest }: ComponentPropsWithoutRef<'tr'>) {
  return <tr {...rest} className={join(TABLE_CLASSES.tr, className)} data-with-row-border data-hover />
}

PlainTable.Th = function Th({ className, ...rest }: ComponentPropsWithoutRef<'th'>) {
  return <th {...rest} className={join(TABLE_CLASSES.th, className)} />
}

PlainTable.Td = function Td({ className, ...rest }: ComponentPropsWithoutRef<'td'>) {
  return <td {...rest} className={join(TABLE_CLASSES.td, className)} />
}
