import { AnchorButton, Callout, Intent } from '@blueprintjs/core';
import { PLANS, proFeatureSentence } from '@mrn/contracts';
import { PRO_SITE_PATH } from '../../product.ts';

const proMonthlyPrice = `$${(PLANS.PRO.priceCents / 100).toLocaleString('en-US')}`;

/** The PRO introduction shown on /dashboard to accounts not on PRO. */
export function ProIntroBanner() {
  return (
    <Callout className="mrn-pro-banner" intent={Intent.PRIMARY} icon="star" title="Introducing PRO">
      <p>
        {proFeatureSentence()} For {proMonthlyPrice} per month.
      </p>
      <AnchorButton
        href={PRO_SITE_PATH}
        target="_blank"
        rel="noopener noreferrer"
        intent={Intent.PRIMARY}
        endIcon="share"
        text="Learn about PRO"
      />
    </Callout>
  );
}
