import { Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CardList } from '../../shared/card-list.tsx';
import { ScrollRegion } from '../../shared/scroll-region.tsx';

export interface CatalogueColumn<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
}

interface CatalogueTableProps<Row> {
  /** Names the phone card list; the table's scroll region is '{label} table'. */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The first column, the row's header (what screen readers announce for its cells). */
  header: CatalogueColumn<Row>;
  columns: readonly CatalogueColumn<Row>[];
  actions: (row: Row) => ReactNode;
  minWidth: number;
}

// A word breaks only when it cannot fit a line by itself (a long e-mail on a phone). Not
// 'anywhere', which lets a table squeeze a column below its longest word ("Offere d").
const wrap = { overflowWrap: 'break-word' } as const;

/**
 * One catalogue list from one set of columns: a table from 48em up, one card per row below it
 * (a 375 px phone), as on the other admin screens.
 */
export function CatalogueTable<Row>({
  label,
  rows,
  rowKey,
  header,
  columns,
  actions,
  minWidth,
}: CatalogueTableProps<Row>) {
  return (
    <>
      <ScrollRegion label={`${label} table`} minWidth={minWidth} visibleFrom="sm">
        <Table striped withTableBorder verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{header.label}</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.label} scope="col">
                  {column.label}
                </Table.Th>
              ))}
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                <Table.Th scope="row" fw={600} style={wrap}>
                  {header.cell(row)}
                </Table.Th>
                {columns.map((column) => (
                  <Table.Td key={column.label} style={wrap}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
                <Table.Td>{actions(row)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      <CardList label={label}>
        {rows.map((row) => (
          <Paper key={rowKey(row)} component="li" withBorder radius="md" p="md">
            <Stack gap={6}>
              <Text fw={600} style={wrap}>
                {header.cell(row)}
              </Text>
              {columns.map((column) => (
                <Text key={column.label} size="sm" style={wrap}>
                  {column.label}: {column.cell(row)}
                </Text>
              ))}
              {actions(row)}
            </Stack>
          </Paper>
        ))}
      </CardList>
    </>
  );
}
