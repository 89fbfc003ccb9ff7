import { useEffect, useImperativeHandle, type Ref } from 'react';
import type { BotCheckHandle } from '../shared/bot-check.tsx';

/**
 * Stand-in for shared/bot-check.tsx in component tests (the ALTCHA widget needs Web Workers and a
 * challenge server): solved at once, and forgetting its payload on reset, as the real one does
 * while it solves the next. Use: `vi.mock('…/shared/bot-check.tsx', () => import('…/test/bot-check.tsx'))`.
 */
export function BotCheck({
  onPayload,
  ref,
}: {
  onPayload: (payload: string | null) => void;
  ref?: Ref<BotCheckHandle>;
}) {
  useEffect(() => onPayload('solved-payload'), [onPayload]);
  useImperativeHandle(ref, () => ({ reset: () => onPayload(null) }), [onPayload]);
  return null;
}
