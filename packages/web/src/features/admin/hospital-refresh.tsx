import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { HospitalDetail } from '@ratelens/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { inventoryKeys } from '../inventory/inventory-queries.ts';
import { adminErrorMessage, adminFilesKeys, refreshHospital } from './admin-api.ts';

export const REFRESH_ASKED =
  'Asked. The background worker reads the file again where it came from and loads it if it ' +
  'changed; the files above show the result when it has.';
export const REFRESH_ALREADY_ASKED =
  'Already asked: the background worker has not taken up the earlier request yet. The files ' +
  'above show the result when it has.';
export const REFRESH_READING =
  'The background worker is reading the file: the files above show how far it is.';
export const REFRESH_CHECKING =
  'The background worker is checking whether the file changed since it was read: the files ' +
  'above show how far it is.';
export const REFRESH_DONE = 'Read again: the files above show the result.';
export const REFRESH_NOT_TAKEN =
  'The file has not been read again in two minutes. A long refresh may be under way, or no ' +
  'background worker is running (npm run worker, or a server with WORKER=on). The request stays ' +
  'queued until one is.';

/** How often the page asks for the hospital's files while the worker has the request, and how long. */
const WATCH_EVERY_MS = 3000;
const WATCH_FOR_MS = 120_000;

/** What tells one state of the file list from the next: its newest entry, as the server sends it. */
const newestRun = (hospital: HospitalDetail) => JSON.stringify(hospital.files[0] ?? null);

/**
 * An administrator's button to have a hospital's file read again now, rather than at the daily
 * refresh (ADR 0021). The worker may run in another process: the page asks for the hospital's
 * files every few seconds, for up to two minutes, and says when the newest one has changed. A
 * file the worker is reading is listed as loading, with how far it is; the page then asks for it
 * as long as it loads (useHospitalDetail), however long that is.
 */
export function HospitalRefresh({ hospital }: { hospital: HospitalDetail }) {
  const queryClient = useQueryClient();
  const [askedAt, setAskedAt] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const newest = newestRun(hospital);
  const changed = askedAt !== null && newest !== askedAt;
  const reading = changed && hospital.files[0]?.status === 'loading';
  const done = changed && !reading;
  const watching = askedAt !== null && !changed && !expired;
  const ask = useMutation({
    mutationFn: () => refreshHospital(hospital.hospitalID),
    onSuccess: () => {
      setExpired(false);
      setAskedAt(newest);
      // The daily refresh's status counts the requests waiting: this one now. The app keeps an
      // answer 30 seconds and the page asks again once a minute when idle, so, back on it just
      // after asking, an administrator was told that no request waited.
      void queryClient.invalidateQueries({ queryKey: adminFilesKeys.refreshStatus });
    },
  });
  const { buttonRef, resultRef } = useSettledFocus(ask.isPending);

  useEffect(() => {
    if (!watching) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > WATCH_FOR_MS) setExpired(true);
      else
        void queryClient.invalidateQueries({
          queryKey: inventoryKeys.hospital(hospital.hospitalID),
        });
    }, WATCH_EVERY_MS);
    return () => clearInterval(timer);
  }, [watching, queryClient, hospital.hospitalID]);

  useEffect(() => {
    // The read has ended: the hospital may have left the failing files, or joined them.
    if (done) void queryClient.invalidateQueries({ queryKey: adminFilesKeys.failingFiles });
  }, [done, queryClient]);

  const said = done
    ? REFRESH_DONE
    : reading
      ? hospital.files[0]?.progress?.phase === 'checking'
        ? REFRESH_CHECKING
        : REFRESH_READING
      : expired
        ? REFRESH_NOT_TAKEN
        : ask.data?.status === 'waiting'
          ? REFRESH_ASKED
          : REFRESH_ALREADY_ASKED;
  return (
    <Stack gap="md" maw={480} component="section" aria-labelledby="hospital-refresh-title">
      <Title order={2} id="hospital-refresh-title">
        Newer file (administrators)
      </Title>
      <Text>
        Every hospital&apos;s file is read again where it came from on a schedule, daily unless set
        otherwise. Read this one again now when the hospital has just published a new file.
      </Text>
      {ask.isError && (
        <FormAlert ref={resultRef} tone="error">
          {adminErrorMessage(ask.error)}
        </FormAlert>
      )}
      {ask.isSuccess && (
        <FormAlert ref={resultRef} tone={done ? 'success' : 'info'}>
          {said}
        </FormAlert>
      )}
      <Group>
        <Button
          ref={buttonRef}
          onClick={() => ask.mutate()}
          loading={ask.isPending}
          disabled={watching || reading}
        >
          Read its file again now
        </Button>
      </Group>
    </Stack>
  );
}
