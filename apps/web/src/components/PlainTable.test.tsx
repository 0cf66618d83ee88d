import { render } from '@testing-library/react'
import { MantineProvider, Table } from '@mantine/core'
import { describe, expect, it } from 'vitest'
import { PlainTable, TABLE_CLASSES } from './PlainTable.tsx'

/** The element's HTML with attributes and class names in one order (the two put them in different orders). */
function normalized(element: Element): string {
  const copy = element.cloneNode(true) as Element
  for (const e of [copy, ...copy.querySelectorAll('*')]) {
    const attributes = [...e.attributes].map((a) => [a.name, a.name === 'class' ? [...e.classList].sort().join(' ') : a.value] as const)
    for (const [name] of attributes) e.removeAttribute(name)
    for (const [name, value] of attributes.sort(([a], [b]) => a.localeCompare(b))) e.setAttribute(name, value)
  }
  return copy.outerHTML
}

describe('PlainTable: Mantine’s Table from plain elements', () => {
  it('uses the class names of the installed Mantine', () => {
    for (const [part, names] of Object.entries(TABLE_CLASSES)) {
      expect(names.split(' '), part).toEqual([Table.classes[part as keyof typeof Table.classes], `mantine-Table-${part}`])
    }
  })

  it('draws the same markup as <Table highlightOnHover verticalSpacing="sm">', () => {
    const mantine = render(
      <MantineProvider>
        <Table highlightOnHover verticalSpacing="sm" className="mine" data-testid="table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Title</Table.Th>
              <Table.Th>Key</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr style={{ cursor: 'pointer' }} data-testid="row">
              <Table.Td className="title">One</Table.Td>
              <Table.Td>K-1</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td colSpan={2}>None</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </MantineProvider>,
    )
    const expected = normalized(mantine.getByTestId('table'))
    mantine.unmount()

    const plain = render(
      <PlainTable verticalSpacing="sm" className="mine" data-testid="table">
        <PlainTable.Thead>
          <PlainTable.Tr>
            <PlainTable.Th>Title</PlainTable.Th>
            <PlainTable.Th>Key</PlainTable.Th>
          </PlainTable.Tr>
        </PlainTable.Thead>
        <PlainTable.Tbody>
          <PlainTable.Tr style={{ cursor: 'pointer' }} data-testid="row">
            <PlainTable.Td className="title">One</PlainTable.Td>
            <PlainTable.Td>K-1</PlainTable.Td>
          </PlainTable.Tr>
          <PlainTable.Tr>
            <PlainTable.Td colSpan={2}>None</PlainTable.Td>
          </PlainTable.Tr>
        </PlainTable.Tbody>
      </PlainTable>,
    )
    expect(normalized(plain.getByTestId('table'))).toBe(expected)
  })
})
