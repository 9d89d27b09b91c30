import type { Projector } from '../projector.ts';
import { accountsProjector } from './accounts.ts';
import { appSettingsProjector } from './app-settings.ts';
import { usersProjector } from './users.ts';

/** Every projector the product runs; `npm run rebuild -- <name|all>` picks from these. */
export const allProjectors: readonly Projector[] = [accountsProjector, usersProjector, appSettingsProjector];

export { accountsProjector, appSettingsProjector, usersProjector };
