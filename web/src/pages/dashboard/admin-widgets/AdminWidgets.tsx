import { H3 } from '@blueprintjs/core';
import { ContributorsCard } from './ContributorsCard.tsx';
import { RecentMerchantsCard } from './RecentMerchantsCard.tsx';
import { StatCards } from './StatCards.tsx';
import './admin-widgets.css';

/** The platform administrators' widgets on the dashboard (accounts spec §2 "Widgets"). */
export function AdminWidgets() {
  return (
    <section className="mrn-admin-widgets" aria-labelledby="mrn-admin-widgets-title">
      <H3 id="mrn-admin-widgets-title" className="mrn-visually-hidden">
        Network at a glance
      </H3>
      <StatCards />
      <RecentMerchantsCard />
      <div className="mrn-contributor-grid">
        <ContributorsCard direction="top" />
        <ContributorsCard direction="bottom" />
      </div>
    </section>
  );
}
