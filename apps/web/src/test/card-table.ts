/**
 * What each cell of a CardTable says it is, row by row: below 720 px a cell shows its `data-label`
 * as its column's name, so each label must be its column's header (null: the lead cell heading the
 * card, or a cell of buttons). jsdom applies no media query: the test reads the markup the CSS uses.
 */
export function cardLabels(table: HTMLElement): { header: string; label: string | null }[][] {
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '')
  return [...table.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td, i) => ({ header: headers[i] ?? '', label: td.getAttribute('data-label') })),
  )
}

/** The labels a CardTable's rows carry, each checked against its column's header; the columns without one are the lead and the actions. */
export function unlabelledColumns(table: HTMLElement): string[] {
  const rows = cardLabels(table)
  for (const row of rows)
    for (const cell of row)
      if (cell.label !== null && cell.label !== cell.header) throw new Error(`a cell labelled ${cell.label} sits in the column ${cell.header}`)
  const columns = new Set(rows.flatMap((row) => row.filter((cell) => cell.label === null).map((cell) => cell.header)))
  return [...columns]
}
