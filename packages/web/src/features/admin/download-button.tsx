import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../shared/http.ts';
import { downloadFeedbackFile } from './admin-api.ts';
import { saveBlob } from '../../shared/save-blob.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';

interface DownloadButtonProps {
  url: string;
  fileName: string;
}

/**
 * 'Download <name>': the attachment needs the auth headers, so a plain link would not do. The
 * file is fetched with them and saved under its original name.
 */
export function DownloadButton({ url, fileName }: DownloadButtonProps) {
  const download = useMutation({
    mutationFn: () => downloadFeedbackFile(url),
    onSuccess: (blob) => saveBlob(blob, fileName),
  });
  // The button takes the focus back either way: a saved file shows nothing to focus, and a
  // failure is read out by its alert below the button, which is where to try again.
  const { buttonRef } = useSettledFocus(download.isPending);

  return (
    <Stack gap={4} align="flex-start">
      <Button
        ref={buttonRef}
        size="xs"
        variant="default"
        loading={download.isPending}
        onClick={() => download.mutate()}
        style={{ maxWidth: '100%' }}
        styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'left' } }}
        h="auto"
        py={6}
      >
        Download {fileName}
      </Button>
      {download.isError && (
        <Text size="sm" c="red" role="alert">
          {errorMessage(download.error)}
        </Text>
      )}
    </Stack>
  );
}
