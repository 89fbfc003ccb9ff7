import { Button, Group, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ButtonProps } from '@mantine/core';
import { Markdown, type MarkdownTree } from './markdown.tsx';

interface TextModalButtonProps extends ButtonProps {
  /** The button's label, unless `buttonLabel` differs. Also the dialog's title. */
  title: string;
  buttonLabel?: string;
  /** Markdown; its `##` headings become h3 under the dialog's title. */
  text: MarkdownTree;
}

/** A button that opens a titled dialog of content text (the home popups, the use-case cards). */
export function TextModalButton({
  title,
  buttonLabel,
  text,
  ...buttonProps
}: TextModalButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      {/* A label wider than its button wraps and the button grows: Mantine's one line was cut
          off without an ellipsis ('Example uses: Health insurance companies' in its use-case
          card, at 375 px and at 1280 px). */}
      <Button
        h="auto"
        mih="var(--button-height)"
        py={8}
        styles={{ label: { whiteSpace: 'normal', lineHeight: 1.3 } }}
        {...buttonProps}
        onClick={open}
      >
        {buttonLabel ?? title}
      </Button>
      <Modal opened={opened} onClose={close} title={title} size="lg">
        <Markdown headingOffset={1}>{text}</Markdown>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Modal>
    </>
  );
}
