import { route } from '../http/route.ts';
import { z } from '../zod.ts';

/**
 * The partner API's sandbox (DESIGN §4 "Sandbox"): a dataset of its own, reset weekly and, by a
 * platform administrator, on demand. Partners reach it with `test_` credentials, never through here.
 */
export const resetSandbox = route({
  method: 'POST',
  path: '/api/sandbox/reset',
  service: 'command',
  access: 'platform_admin',
  response: z.object({
    data: z.object({
      /** When this reset finished: the sandbox holds only its seed as of then. */
      reset_at: z.string(),
      /** The EIN of the seeded merchant (9 digits). */
      merchant_fein: z.string(),
    }),
  }),
  action: 'reset the sandbox',
});
