import type { CSSProperties, HTMLAttributes, ReactNode } from 'react'
import classes from './TableScroll.module.css'

/**
 * A table wider than its box scrolls sideways inside it, with a shadow at each edge that has more of
 * the table beyond it, so a cut-off column reads as "scroll sideways".
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
