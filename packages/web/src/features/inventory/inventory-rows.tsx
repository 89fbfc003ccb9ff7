import {
  Anchor,
  CheckIcon,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { InventoryRow } from '@ratelens/core';
import { useEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router';
import { CardList } from '../../shared/card-list.tsx';
import { ScrollRegion } from '../../shared/scroll-region.tsx';
import { hospitalPath, useOpenHospital } from './back-to-inventory.ts';
import regionClasses from './inventory-table-region.module.css';

/** The columns before Facility Name, in the spec's order. */
const PLACE_COLUMNS = [
  ['stateName', 'State Name'],
  ['msaName', 'MSA Name'],
  ['careCenter', 'Care Center'],
] as const satisfies readonly (readonly [keyof InventoryRow, string])[];

/** The rate-type columns after Facility Name, in the spec's order. */
const FLAG_COLUMNS = [
  ['hasFiles', 'Has Files'],
  ['cashRates', 'Cash Rates'],
  ['commercialRates', 'Commercial Rates'],
  ['medicareRates', 'Medicare Rates'],
  ['inpatient', 'Inpatient'],
  ['outpatient', 'Outpatient'],
  ['drugs', 'Drugs'],
] as const satisfies readonly (readonly [keyof InventoryRow, string])[];

interface RowsProps {
  rows: readonly InventoryRow[];
  /** The inventory's query string: the filters and the page travel to the detail view and back. */
  search: string;
}

/**
 * One page of the inventory: the spec's eleven columns from the `lg` breakpoint (75em) up, a card
 * per hospital below it. The eleven columns need about 1,050 px; narrower, they would hide the
 * last rate types (on a phone even the Facility Name, the way in) off to the side.
 */
export function InventoryRows(props: RowsProps) {
  return (
    <>
      <InventoryTable {...props} />
      <InventoryCards {...props} />
    </>
  );
}

/** The way to a hospital's page; marked with its id, for the focus to come back to it. */
function HospitalLink({ row, search }: { row: InventoryRow; search: string }) {
  const open = useOpenHospital(row.hospitalID, search);
  return (
    <Anchor
      component={Link}
      to={hospitalPath(row.hospitalID, search)}
      onClick={open}
      data-hospital-id={row.hospitalID}
    >
      {row.facilityName}
    </Anchor>
  );
}

/**
 * Back from a hospital's page (`hospitalId`), its link in the rows below `container` takes the
 * focus, once per visit to the list (`visit`, the location's key): in the table or, where the
 * table is hidden, on its card. The focus moves after the app's layout has given the new screen's
 * focus to its main element, and once the rows are there. A hospital not in the rows shown leaves
 * the focus where the layout put it.
 */
export function useFocusHospitalOnReturn(
  container: RefObject<HTMLElement | null>,
  hospitalId: string | null,
  visit: string,
): void {
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (hospitalId === null || focused.current === visit) return;
    const timer = setTimeout(() => {
      const rows = container.current;
      if (rows === null) return;
      focused.current = visit;
      const links = [...rows.querySelectorAll<HTMLElement>('a[data-hospital-id]')].filter(
        (link) => link.dataset.hospitalId === hospitalId,
      );
      // A link in a hidden layout (display: none) does not take the focus: the next one does.
      for (const link of links) {
        link.focus();
        if (document.activeElement === link) return;
      }
    });
    return () => clearTimeout(timer);
  });
}

function InventoryTable({ rows, search }: RowsProps) {
  return (
    <ScrollRegion
      label="Hospitals"
      minWidth={1040}
      visibleFrom="lg"
      className={regionClasses.region}
    >
      {/* The header row stays in view while the rows scroll (inventory-table-region.module.css). */}
      <Table striped highlightOnHover withTableBorder stickyHeader>
        <VisuallyHidden component="caption">
          Hospitals, and the kinds of rates their files publish
        </VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">State Name</Table.Th>
            <Table.Th scope="col">MSA Name</Table.Th>
            <Table.Th scope="col">Care Center</Table.Th>
            <Table.Th scope="col">Facility Name</Table.Th>
            {FLAG_COLUMNS.map(([key, label]) => (
              <Table.Th key={key} scope="col">
                {label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.hospitalID}>
              <Table.Td>{row.stateName}</Table.Td>
              <Table.Td>{row.msaName}</Table.Td>
              <Table.Td>{row.careCenter}</Table.Td>
              {/* The row's header: a screen reader names each Yes or No by the hospital. */}
              <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                <HospitalLink row={row} search={search} />
              </Table.Th>
              {FLAG_COLUMNS.map(([key]) => (
                <Table.Td key={key}>
                  <YesNo value={row[key]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

/** Below `lg`: the hospital's name first, where it is, then the seven rate types as a checklist. */
function InventoryCards({ rows, search }: RowsProps) {
  return (
    <CardList label="Hospitals" tableFrom="lg">
      {rows.map((row) => (
        <Paper key={row.hospitalID} component="li" withBorder radius="md" p="sm">
          <Stack gap={4}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              <HospitalLink row={row} search={search} />
            </Text>
            {/* Named as the table's columns are, each on its line: one not known is left out. */}
            {PLACE_COLUMNS.map(
              ([key, label]) =>
                row[key] !== '' && (
                  <Text key={key} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {label}: {row[key]}
                  </Text>
                ),
            )}
            <SimpleGrid
              component="ul"
              cols={2}
              spacing="xs"
              verticalSpacing={2}
              p={0}
              m={0}
              mt={4}
              aria-label={`What ${row.facilityName} publishes`}
              style={{ listStyle: 'none' }}
            >
              {FLAG_COLUMNS.map(([key, label]) => (
                <Group key={key} component="li" gap={6} wrap="nowrap">
                  <Mark value={row[key]} />
                  {/* What the file lacks is struck through and greyed, so a glance does not read it as there. */}
                  <Text
                    size="sm"
                    c={row[key] ? undefined : 'dimmed'}
                    td={row[key] ? undefined : 'line-through'}
                  >
                    {label}
                    <VisuallyHidden>: {row[key] ? 'Yes' : 'No'}</VisuallyHidden>
                  </Text>
                </Group>
              ))}
            </SimpleGrid>
          </Stack>
        </Paper>
      ))}
    </CardList>
  );
}

/** A tick or a dash, for the eye only: the word beside it is what screen readers hear. */
function Mark({ value }: { value: boolean }) {
  return value ? (
    <CheckIcon size={14} aria-hidden="true" color="var(--mantine-color-teal-8)" />
  ) : (
    <Text span size="sm" c="dimmed" aria-hidden="true" w={14} ta="center">
      –
    </Text>
  );
}

/** A mark for the eye and a word for screen readers: the answer never rests on colour alone. */
function YesNo({ value }: { value: boolean }) {
  return (
    <Group gap={0} wrap="nowrap">
      <Mark value={value} />
      <VisuallyHidden>{value ? 'Yes' : 'No'}</VisuallyHidden>
    </Group>
  );
}
