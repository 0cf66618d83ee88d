import type { CSSProperties, HTMLAttributes, ReactNode } from 'react'
import classes from './TableScroll.module.css'

/**
 * A table wider than its box scrolls sideways inside it, as Mantine's `Table.ScrollContainer
 * type="native"` does, without that component's static import of ScrollArea, which brings the
 * floating-ui library into the dashboard's first load.
 */
export function TableScroll({ minWidth, children, ...rest }: { minWidth: number; children: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div className={classes.scroll} {...rest}>
      <div className={classes.inner} style={{ '--table-scroll-min-width': `${minWidth}px` } as CSSProperties}>
        {children}
      </div>
    </div>
  )
}
