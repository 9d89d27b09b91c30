import type { EventData } from './events/index.ts';

/**
 * A `MerchantAdded` event's data for tests and benches: what the caller names, and the optional details
 * empty (an Austin, TX merchant unless it says otherwise). The catalogue's shape written once, not in
 * every suite that needs a merchant in the log.
 */
export const merchantAddedData = (
  given: Pick<EventData<'MerchantAdded'>, 'merchantId' | 'fein' | 'legalName' | 'accountId' | 'userId'> &
    Partial<EventData<'MerchantAdded'>>,
): EventData<'MerchantAdded'> => ({
  dba: null,
  street1: null,
  street2: null,
  city: 'Austin',
  state: 'TX',
  businessPhone: null,
  businessStartdate: null,
  industry: null,
  ...given,
});
