import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { PageLoader } from '../../shared/page-loader.tsx';
import { adminErrorMessage } from './admin-api.ts';
import { CatalogueTable, type CatalogueColumn } from './catalogue-table.tsx';
import { ConfirmRemoval } from './confirm-removal.tsx';
import { useRemovalFocus } from './use-removal-focus.ts';

/** Taking a row out of the list (deactivating a coupon, removing an offer) after a confirmation. */
export interface CatalogueRemoval<Row> {
  /** The row's button, and its accessible name. */
  button: string;
  buttonLabel: (row: Row) => string;
  /** Rows without the button (e.g. a coupon already deactivated); all rows when absent. */
  applies?: (row: Row) => boolean;
  title: string;
  question: (row: Row) => string;
  confirmLabel: string;
  run: (row: Row) => Promise<unknown>;
  /** The notice once it is done. */
  done: (row: Row) => string;
}

interface CatalogueSectionProps<Row> {
  queryKey: QueryKey;
  load: (signal: AbortSignal) => Promise<Row[]>;
  loadingLabel: string;
  emptyText: string;
  intro: ReactNode;
  /** The add button's label and the title of its modal. */
  addLabel: string;
  addTitle: string;
  /** The add form; `onSaved` takes the notice to show. */
  form: (done: { onCancel: () => void; onSaved: (notice: string) => void }) => ReactNode;
  table: {
    label: string;
    rowKey: (row: Row) => string | number;
    header: CatalogueColumn<Row>;
    columns: readonly CatalogueColumn<Row>[];
    minWidth: number;
  };
  removal: CatalogueRemoval<Row>;
}

/**
 * One list of the catalogue screen: loading and error states, a notice, an add form in a modal,
 * the table (cards on a phone), and a confirmed removal per row.
 */
export function CatalogueSection<Row>({
  queryKey,
  load,
  loadingLabel,
  emptyText,
  intro,
  addLabel,
  addTitle,
  form,
  table,
  removal,
}: CatalogueSectionProps<Row>) {
  const queryClient = useQueryClient();
  const rows = useQuery({ queryKey, queryFn: ({ signal }) => load(signal) });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Row | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { noticeRef, focusNotice } = useRemovalFocus();
  const refresh = () => void queryClient.invalidateQueries({ queryKey });

  const remove = useMutation({
    mutationFn: (row: Row) => removal.run(row),
    onSuccess: (_result, row) => {
      setRemoving(null);
      setNotice(removal.done(row));
      focusNotice();
      refresh();
    },
  });
  const askRemove = (row: Row) => {
    remove.reset();
    setNotice(null);
    setRemoving(row);
  };

  if (rows.isPending) return <PageLoader label={loadingLabel} />;
  if (rows.isError) return <FormAlert tone="error">{adminErrorMessage(rows.error)}</FormAlert>;

  return (
    <Stack gap="sm">
      {notice !== null && (
        <FormAlert ref={noticeRef} tone="success">
          {notice}
        </FormAlert>
      )}
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          {intro}
        </Text>
        <Button
          onClick={() => {
            setNotice(null);
            setAdding(true);
          }}
        >
          {addLabel}
        </Button>
      </Group>
      {rows.data.length === 0 ? (
        <Text>{emptyText}</Text>
      ) : (
        <CatalogueTable
          {...table}
          rows={rows.data}
          actions={(row) =>
            (removal.applies?.(row) ?? true) ? (
              <Button
                size="xs"
                color="red"
                variant="light"
                aria-label={removal.buttonLabel(row)}
                onClick={() => askRemove(row)}
              >
                {removal.button}
              </Button>
            ) : null
          }
        />
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title={addTitle} centered>
        {adding &&
          form({
            onCancel: () => setAdding(false),
            onSaved: (saved) => {
              setAdding(false);
              setNotice(saved);
              refresh();
            },
          })}
      </Modal>
      <ConfirmRemoval
        opened={removing !== null}
        title={removal.title}
        question={removing && removal.question(removing)}
        confirmLabel={removal.confirmLabel}
        error={remove.isError ? adminErrorMessage(remove.error) : null}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => {
          if (!remove.isPending) setRemoving(null);
        }}
      />
    </Stack>
  );
}
