import { Anchor, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { PageLoader } from '../../shared/page-loader.tsx';

// The entry brings the ALTCHA widget and its workers: loaded when someone opens the dialog, not
// with every page that shows the footer.
const DonationEntry = lazy(() =>
  import('./donation-entry.tsx').then((module) => ({ default: module.DonationEntry })),
);

/**
 * 'Donate': opens the donation entry dialog (search-and-accounts §2 "Donation entry"), reachable
 * signed in or out (§6: anonymous visitors can reach the donation popup).
 */
export function DonateButton({ size = 'sm' }: { size?: 'xs' | 'sm' | 'md' }) {
  const [opened, dialog] = useDisclosure(false);
  return (
    <>
      <Anchor component="button" type="button" size={size} onClick={dialog.open}>
        Donate
      </Anchor>
      <Modal opened={opened} onClose={dialog.close} title="Donate to RateLens" centered>
        <Suspense fallback={<PageLoader />}>
          <DonationEntry onDone={dialog.close} />
        </Suspense>
      </Modal>
    </>
  );
}
