import type { CSSProperties, HTMLAttributes, ReactNode } from 'react'
import { Table, type TableProps } from '@mantine/core'
import classes from './TableScroll.module.css'

/**
 * A table wider than its box scrolls sideways inside it, with a shadow at each edge that has more of
 * the table beyond it, so a cut-off column reads as "scroll sideways". With `cards`, the table inside
 * is a list of cards below 720 px (CardTable) and needs no width there.
 */
export function TableScroll({
  minWidth,
  cards = false,
  children,
  ...rest
}: { minWidth: number; cards?: boolean; children: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={classes.scroll} data-cards={cards || undefined} {...rest}>
      <div className={classes.inner} style={{ '--table-scroll-min-width': `${minWidth}px` } as CSSProperties}>
        {children}
      </div>
    </div>
  )
}

/** The class names a CardTable's cells take: `lead` for the cell that heads its card, `actions` for a cell of buttons, `end` for a number aligned right in the table. */
export const cardCell = { lead: classes.lead, actions: classes.actions, end: classes.end }

/**
 * A table from 720 px up (scrolling sideways when narrower than minWidth) and, below, a list of
 * cards: a row is a card, and each of its cells shows its column's name (its `data-label`) beside
 * its value. The header row stays for screen readers, which still read a table.
 */
export function CardTable({
  minWidth,
  scrollProps,
  className,
  ...table
}: TableProps & { minWidth: number; scrollProps?: HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string> }) {
  return (
    <TableScroll minWidth={minWidth} cards {...scrollProps}>
      <Table {...table} className={className ? `${classes.cards} ${className}` : classes.cards} />
    </TableScroll>
  )
}
