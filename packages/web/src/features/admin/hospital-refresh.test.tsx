// @vitest-environment jsdom
import { ROLES, type FailingFile, type HospitalDetail, type RefreshStatus } from '@ratelens/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, Providers } from '../../app/providers.tsx';
import {
  AdminFilesRoute,
  FAILING_TITLE,
  NO_FAILING_FILES,
  NO_REQUESTS,
  REFRESH_TITLE,
  requestsWords,
} from '../../routes/admin-files.tsx';
import { jsonResponse } from '../../test/render.tsx';
import { hospitalFile, type HospitalFile } from '../../test/hospital-fixtures.ts';
import { signInAs } from '../../test/sign-in.ts';
import { clearSession } from '../auth/session.ts';
import { useHospitalDetail } from '../inventory/inventory-queries.ts';
import { HospitalRefresh, REFRESH_ASKED, REFRESH_DONE } from './hospital-refresh.tsx';

const HOSPITAL_ID = '5b6c2f0e-8d1a-4c3e-9f47-2a1b3c4d5e6f';

/** A run of the hospital's file, as the hospital's page lists it. */
function run(overrides: Partial<HospitalFile>): HospitalFile {
  return hospitalFile({
    source: 'charges.json',
    sourceUrl: 'https://moved.example/2026-03/charges.json',
    loadedAt: '2026-11-19T04:31:40Z',
    ...overrides,
  });
}

const FAILED = run({
  status: 'failed',
  format: null,
  version: null,
  lastUpdatedOn: null,
  items: 0,
  rates: 0,
  loadedAt: null,
  error: 'The server answered 404 Not Found for https://moved.example/2026-03/charges.json.',
});
const IN_USE = run({});

const HOSPITAL: HospitalDetail = {
  hospitalID: HOSPITAL_ID,
  facilityName: 'Moved File Hospital',
  stateName: 'Vermont',
  msaName: 'Burlington-South Burlington, VT',
  addresses: [],
  locations: [],
  npis: [],
  isDemo: false,
  hospitalType: null,
  healthsystemType: null,
  files: [FAILED, IN_USE],
};

const FAILING: FailingFile = {
  hospitalID: HOSPITAL_ID,
  facilityName: HOSPITAL.facilityName,
  stateName: HOSPITAL.stateName,
  source: FAILED.source,
  sourceUrl: FAILED.sourceUrl,
  error: FAILED.error,
  failingSince: '2026-11-20T04:30:12Z',
  lastTriedAt: '2026-11-24T04:30:09Z',
  failures: 5,
  inUseReadAt: IN_USE.loadedAt,
};

/** A worker that runs, with the daily refresh off and no request waiting. */
const IDLE: RefreshStatus = {
  worker: 'running',
  workerSeenAt: '2026-11-25T15:02:30Z',
  schedule: null,
  nextRunAt: null,
  latest: null,
  requests: { waiting: 0, running: 0 },
};

/** What the stubbed server holds; a request to read the file again adds one waiting. */
interface Server {
  status: RefreshStatus;
  failing: FailingFile[];
  hospital: HospitalDetail;
}

function stubServer(server: Server): void {
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === `/api/admin/hospitals/${HOSPITAL_ID}/refresh` && init?.method === 'POST') {
      server.status = { ...server.status, requests: { waiting: 1, running: 0 } };
      return Promise.resolve(jsonResponse(202, { status: 'waiting' }));
    }
    if (url === '/api/admin/refresh') return Promise.resolve(jsonResponse(200, server.status));
    if (url === '/api/admin/files/failing')
      return Promise.resolve(jsonResponse(200, server.failing));
    if (url === `/api/Inventory/hospital/${HOSPITAL_ID}`)
      return Promise.resolve(jsonResponse(200, server.hospital));
    return Promise.resolve(jsonResponse(404, { message: `not stubbed: ${url}` }));
  });
}

/** The hospital's page, cut to this section, with a way back to the failing files. */
function HospitalPage() {
  const { hospitalId = '' } = useParams();
  const hospital = useHospitalDetail(hospitalId);
  if (!hospital.data) return null;
  return (
    <>
      <HospitalRefresh hospital={hospital.data} />
      <Link to="/admin/files">Back to the failing files</Link>
    </>
  );
}

/**
 * The failing-files page with the app's own query client (an answer kept 30 seconds), from which an
 * administrator opens the failing hospital's page and asks for its file to be read again.
 */
async function askFromFailingFiles(server: Server) {
  signInAs(ROLES.admin);
  stubServer(server);
  render(
    <Providers queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={['/admin/files']}>
        <Routes>
          <Route path="/admin/files" element={<AdminFilesRoute />} />
          <Route path="/inventoryList/:hospitalId" element={<HospitalPage />} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
  const refresh = () => within(screen.getByRole('region', { name: REFRESH_TITLE }));
  expect(await refresh().findByText(NO_REQUESTS)).toBeTruthy();
  const [link] = await screen.findAllByRole('link', { name: HOSPITAL.facilityName });
  fireEvent.click(link!);
  fireEvent.click(await screen.findByRole('button', { name: 'Read its file again now' }));
  expect(await screen.findByText(REFRESH_ASKED)).toBeTruthy();
  return { refresh, back: () => fireEvent.click(screen.getByText('Back to the failing files')) };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearSession();
});

describe('HospitalRefresh and the failing-files page', () => {
  it('has the page count the request as waiting as soon as the administrator is back on it', async () => {
    const { refresh, back } = await askFromFailingFiles({
      status: IDLE,
      failing: [FAILING],
      hospital: HOSPITAL,
    });

    back();
    // Not the status the page fetched seconds before, which it would show until its next poll.
    expect(await refresh().findByText(requestsWords({ waiting: 1, running: 0 }))).toBeTruthy();
  });

  it('has the page list the failing files anew once the file has been read again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server: Server = { status: IDLE, failing: [FAILING], hospital: HOSPITAL };
    const { back } = await askFromFailingFiles(server);

    // The worker reads the file again, and this time it loads: the hospital no longer fails.
    server.hospital = { ...HOSPITAL, files: [run({ loadedAt: '2026-11-25T15:03:00Z' }), IN_USE] };
    server.failing = [];
    server.status = IDLE;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await screen.findByText(REFRESH_DONE)).toBeTruthy();

    back();
    const failing = within(await screen.findByRole('region', { name: FAILING_TITLE }));
    expect(await failing.findByText(NO_FAILING_FILES)).toBeTruthy();
  });
});
