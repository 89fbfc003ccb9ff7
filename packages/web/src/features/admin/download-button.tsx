import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../shared/http.ts';
import { downloadFeedbackFile } from './admin-api.ts';
import { saveBlob } from '../../shared/save-blob.ts';

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

  return (
    <Stack gap={4} align="flex-start">
      <Button
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
