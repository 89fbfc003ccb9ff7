import {
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  List,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { HospitalIdParamsSchema, isAdmin, isNpi, type HospitalDetail } from '@ratelens/core';
import { useId, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { backToInventory } from '../features/inventory/back-to-inventory.ts';
import {
  examplesLabel,
  fileCounts,
  fileFormatWords,
  lastOpenRun,
  loadProgress,
  pricesFreshness,
  runReadWhen,
  fileStatusWords,
  type HospitalFile,
  showsFigures,
} from '../features/inventory/inventory-format.ts';
import { FileName } from '../features/inventory/file-name.tsx';
import { RateMixView } from '../features/inventory/rate-mix.tsx';
import { HospitalLabelsForm } from '../features/admin/hospital-labels-form.tsx';
import { HospitalRefresh } from '../features/admin/hospital-refresh.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { formatCalendarDate } from '../shared/format-date.ts';
import { useHospitalDetail } from '../features/inventory/inventory-queries.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError } from '../shared/http.ts';
import { mailtoHref } from '../shared/mailto.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { NewTabLink } from '../shared/router-link.tsx';

export const HOSPITAL_NOT_FOUND_MESSAGE = 'This hospital is not in the inventory.';
export const NO_PROBLEMS_MESSAGE = 'No problems found.';
/** Above a page already shown, when asking for it again (as it does while a file loads) failed. */
export const STALE_DETAIL_MESSAGE =
  'The latest update of this page could not be fetched: what it shows may be out of date.';
/** Beside an NPI that fails CMS's check (its file's validation says so too, `npi.invalid`). */
export const NOT_AN_NPI = '(not a valid NPI)';
/** The disclosure of an earlier run's figures, which are history once another file is in use. */
export const EARLIER_RUN_FIGURES = 'Format, counts, rates and validation of this run';
/** What a warning and an error mean for the rates, under a file's validation. */
export const VALIDATION_KEY =
  'A warning is something in the file that does not follow CMS’s rules but could still be read: ' +
  'its rates are shown. An error broke a rule: unless it says “kept all the same”, the charge ' +
  'or rate it names was left out, and rate searches do not show it.';

/**
 * One hospital of the inventory list with the files loaded for it: where it is, and for each
 * file its status, CMS template version and validation summary. Public, like the list; an
 * administrator also sets the hospital's type and health-system labels here.
 */
export function HospitalDetailRoute() {
  const params = useParams();
  const parsed = HospitalIdParamsSchema.safeParse(params);
  // An id the server would refuse (400) cannot name a hospital: answer as for an unknown one.
  const hospitalId = parsed.success ? parsed.data.hospitalId : null;
  const detail = useHospitalDetail(hospitalId);
  const { search } = useLocation();
  // The list's filters and page travel in the URL; which hospital to focus there, in the state.
  const backLink = (
    <Anchor
      component={Link}
      to={`/inventoryList${search}`}
      state={hospitalId === null ? undefined : backToInventory(hospitalId)}
    >
      Back to the inventory
    </Anchor>
  );

  const notFound =
    hospitalId === null || (detail.error instanceof ApiRequestError && detail.error.status === 404);
  if (notFound) {
    return (
      <Page title="Hospital not found" size="md">
        <Text>{HOSPITAL_NOT_FOUND_MESSAGE}</Text>
        {backLink}
      </Page>
    );
  }
  // A failed refresh keeps the page shown (its open sections, the focus) and says so.
  if (detail.isError && detail.data === undefined) {
    return (
      <Page title="Hospital" size="md">
        <Stack gap="md" align="flex-start">
          <FormAlert tone="error">{detail.error.message}</FormAlert>
          <Button variant="default" onClick={() => void detail.refetch()}>
            Try again
          </Button>
          {backLink}
        </Stack>
      </Page>
    );
  }
  if (detail.isPending) {
    return (
      <Page title="Hospital" size="md">
        <PageLoader label="Loading the hospital..." />
      </Page>
    );
  }

  return (
    <Page title={detail.data.facilityName} size="md">
      {backLink}
      {detail.isError && <FormAlert tone="info">{STALE_DETAIL_MESSAGE}</FormAlert>}
      <Hospital hospital={detail.data} />
    </Page>
  );
}

function Hospital({ hospital }: { hospital: HospitalDetail }) {
  const session = useSession();
  const admin = isAdmin(session.role);
  const lastOpen = lastOpenRun(hospital.files);
  return (
    <Stack gap="xl">
      <Stack gap="xs">
        {hospital.isDemo && (
          <Badge color="grape" variant="filled" style={{ alignSelf: 'flex-start' }}>
            Demo data: fictional hospital
          </Badge>
        )}
        <Text>State: {hospital.stateName || 'not known'}</Text>
        <Text>Metro area: {hospital.msaName || 'not known'}</Text>
        <Text>{pricesFreshness(hospital.files)}</Text>
        {hospital.hospitalType !== null && <Text>Hospital type: {hospital.hospitalType}</Text>}
        {hospital.healthsystemType !== null && (
          <Text>Health system: {hospital.healthsystemType}</Text>
        )}
      </Stack>
      {hospital.locations.length > 1 && hospital.locations.length === hospital.addresses.length ? (
        // Files list a location's name and its address at the same position (ADR 0011).
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <Places locations={hospital.locations} addresses={hospital.addresses} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Facts title="NPIs" noun="NPIs" items={hospital.npis} mark={npiMark} />
          </Grid.Col>
        </Grid>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <Facts title="Addresses" noun="addresses" items={hospital.addresses} />
          <Facts title="Locations" noun="locations" items={hospital.locations} />
          <Facts title="NPIs" noun="NPIs" items={hospital.npis} mark={npiMark} />
        </SimpleGrid>
      )}
      <Stack gap="md">
        <Title order={2}>Files</Title>
        {hospital.files.length === 0 ? (
          <Text>No files have been loaded for this hospital yet.</Text>
        ) : (
          // The server lists the files newest first, a file found unchanged run after run once.
          // Keyed by run, not position: a new run at the top leaves the others' open sections be.
          hospital.files.map((file, index) => (
            <FileCard key={fileKey(file)} file={file} earlier={index > lastOpen} />
          ))
        )}
      </Stack>
      {admin && !hospital.isDemo && hospital.files.some((file) => file.status === 'loaded') && (
        <HospitalRefresh hospital={hospital} />
      )}
      {admin && <HospitalLabelsForm hospital={hospital} />}
    </Stack>
  );
}

/**
 * A run's entry, the same from one answer to the next: its file and when its first run finished
 * (an entry of repeated runs keeps its first; a run still loading has none, nor has one its
 * process left, which is listed as tried when it started). The API gives runs no id.
 */
function fileKey(file: HospitalFile): string {
  return `${file.source} ${file.firstReadAt ?? file.loadedAt ?? 'loading'}`;
}

/** What is said beside an NPI: nothing, or that it is not one (a placeholder, a digit wrong). */
function npiMark(npi: string): string | null {
  return isNpi(npi) ? null : NOT_AN_NPI;
}

function Facts({
  title,
  noun,
  items,
  mark,
}: {
  title: string;
  /** What the items are, in a sentence: "addresses", "NPIs". */
  noun: string;
  items: string[];
  /** What to say beside an item, if anything. */
  mark?: (item: string) => string | null;
}) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {title}
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">None listed.</Text>
      ) : (
        <FoldedList
          items={items}
          noun={noun}
          spacing={4}
          render={(item, index) => {
            const note = mark?.(item) ?? null;
            return (
              // A file may list an address twice (two locations at one site).
              <List.Item key={index}>
                {item}
                {note !== null && <Text span c="dimmed">{` ${note}`}</Text>}
              </List.Item>
            );
          }}
        />
      )}
    </Stack>
  );
}

/** Each location's name with the address listed at the same position under it. */
function Places({ locations, addresses }: { locations: string[]; addresses: string[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Locations
      </Title>
      <FoldedList
        items={locations}
        noun="locations"
        spacing={6}
        render={(location, index) => (
          <List.Item key={index}>
            <Text span fw={600}>
              {location}
            </Text>
            <br />
            <Text span>{addresses[index]}</Text>
          </List.Item>
        )}
      />
    </Stack>
  );
}

/** How many entries of a long list show before "Show all": a health system lists dozens. */
export const FOLDED_SHOWN = 5;

/**
 * A list of which the first FOLDED_SHOWN entries show, and a button shows the rest: a health
 * system's 23 locations put its files, what the page is for, a phone's height or more below.
 */
function FoldedList({
  items,
  noun,
  spacing,
  render,
}: {
  items: string[];
  /** What the entries are, for the button: "Show all 23 locations". */
  noun: string;
  spacing: number;
  render: (item: string, index: number) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const folds = items.length > FOLDED_SHOWN + 1;
  const shown = folds && !open ? items.slice(0, FOLDED_SHOWN) : items;
  return (
    <>
      <List id={listId} spacing={spacing} style={{ overflowWrap: 'anywhere' }}>
        {shown.map(render)}
      </List>
      {folds && (
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
        >
          {open ? `Show the first ${FOLDED_SHOWN} only` : `Show all ${items.length} ${noun}`}
        </Button>
      )}
    </>
  );
}

function FileCard({ file, earlier }: { file: HospitalFile; earlier: boolean }) {
  const readWhen = runReadWhen(file);
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
          <FileName name={file.source} />
        </Title>
        {file.sourceUrl !== null && (
          <Text style={{ overflowWrap: 'anywhere' }}>
            Read from the hospital's site:{' '}
            <NewTabLink href={file.sourceUrl}>{file.sourceUrl}</NewTabLink>
          </Text>
        )}
        {file.sourcePageUrl !== null && (
          <Text style={{ overflowWrap: 'anywhere' }}>
            Listed on the hospital's price page:{' '}
            <NewTabLink href={file.sourcePageUrl}>{file.sourcePageUrl}</NewTabLink>
          </Text>
        )}
        {file.listedInUrl !== null && (
          <Text style={{ overflowWrap: 'anywhere' }}>
            Found in the hospital's list of its price files:{' '}
            <NewTabLink href={file.listedInUrl}>{file.listedInUrl}</NewTabLink>
          </Text>
        )}
        {(file.contactName !== null || file.contactEmail !== null) && (
          <Text style={{ overflowWrap: 'anywhere' }}>
            The hospital's contact for this file: {file.contactName}
            {file.contactName !== null && file.contactEmail !== null && ', '}
            {file.contactEmail !== null && (
              <Anchor href={mailtoHref(file.contactEmail)}>{file.contactEmail}</Anchor>
            )}
          </Text>
        )}
        <Text fw={600}>{fileStatusWords(file)}</Text>
        {file.status === 'loading' && <LoadProgress progress={file.progress} />}
        {readWhen !== null && <Text>{readWhen}</Text>}
        {showsFigures(file) &&
          (earlier ? (
            <details>
              <summary>
                <Text span>{EARLIER_RUN_FIGURES}</Text>
              </summary>
              <Stack gap="xs" mt="xs">
                <FileFigures file={file} />
              </Stack>
            </details>
          ) : (
            <FileFigures file={file} />
          ))}
      </Stack>
    </Card>
  );
}

/** How far a loading file has been read: a bar when its size is known, and the same in words. */
function LoadProgress({ progress }: { progress: HospitalFile['progress'] }) {
  const { words, percent } = loadProgress(progress);
  return (
    <Stack gap={4}>
      {percent !== null && (
        <Progress
          value={percent}
          aria-label={
            progress?.phase === 'checking'
              ? 'How much of the file has been checked'
              : 'How much of the file has been read'
          }
        />
      )}
      <Text>{words}</Text>
    </Stack>
  );
}

/** A run's template, counts, error, rate mix and validation. */
function FileFigures({ file }: { file: HospitalFile }) {
  // A file that failed or is still loading has no validation yet: 'No problems found' would
  // mislead, and so would '0 charges' before anything was read.
  const finished = file.status !== 'failed' && file.status !== 'loading';
  const counted = file.items > 0 || file.rates > 0 || file.rejected > 0;
  return (
    <>
      {file.format !== null && <Text>Format: {fileFormatWords(file.format)}</Text>}
      {file.version !== null && <Text>CMS template version {file.version}</Text>}
      {file.lastUpdatedOn !== null && (
        <Text>Last updated by the hospital on {formatCalendarDate(file.lastUpdatedOn)}</Text>
      )}
      {(finished || counted) && <Text>{fileCounts(file)}</Text>}
      {file.error !== null && <Text c="var(--mantine-color-error)">Error: {file.error}</Text>}
      {file.rateMix !== null && file.rates > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            Rates
          </Title>
          <RateMixView mix={file.rateMix} />
        </Stack>
      )}
      {(finished || file.validation.length > 0) && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            Validation
          </Title>
          {file.validation.length > 1 && (
            <Text size="sm" c="dimmed">
              {VALIDATION_KEY}
            </Text>
          )}
          {file.validation.length === 0 ? (
            <Text>{NO_PROBLEMS_MESSAGE}</Text>
          ) : (
            <List spacing={4}>
              {file.validation.map((line, index) => (
                <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
                  {line.sentence}
                  {line.examples.length > 0 && (
                    <details>
                      <summary>
                        <Text span size="sm">
                          {examplesLabel(line.examples.length)}
                        </Text>
                      </summary>
                      <List size="sm" spacing={2}>
                        {line.examples.map((example, at) => (
                          <List.Item key={at}>{example}</List.Item>
                        ))}
                      </List>
                    </details>
                  )}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      )}
    </>
  );
}
