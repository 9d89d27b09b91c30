import type { Routes } from '@mrn/contracts';
import { type Handler, unavailable } from '@mrn/platform';
import type { CommandDeps } from '../context.ts';

export const SANDBOX_TEXTS = {
  notHere: 'This server runs no sandbox.',
} as const;

/** The platform administrator's reset of the partner API's sandbox to its seed (DESIGN §4). */
export function sandboxHandlers(deps: CommandDeps) {
  const resetSandbox: Handler<Routes['resetSandbox']> = async () => {
    // A service run on its own (the split topology) has no sandbox to reset: say so, change nothing.
    if (!deps.sandbox) throw unavailable(SANDBOX_TEXTS.notHere);
    const { resetAt, merchantFein } = await deps.sandbox.reset();
    return { data: { reset_at: resetAt.toISOString(), merchant_fein: merchantFein } };
  };
  return { resetSandbox };
}
