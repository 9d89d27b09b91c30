import { Card, Classes, H4, H5, Icon, type IconName, Intent, Tag } from '@blueprintjs/core';
import { PLANS } from '@mrn/contracts';
import type { ReactNode } from 'react';
import { useId } from 'react';
import './walkthrough.css';

// The product shown step by step where the specs place an introduction video (/membership, /pro, the
// Membership tab): each step says what happens and shows it with a small picture drawn from the same
// Blueprint pieces the screens use, with the texts and figures the product really shows. No external
// media, nothing that plays.

interface Step {
  icon: IconName;
  title: string;
  text: ReactNode;
  picture: ReactNode;
}

/** A search box with an EIN typed, as the top bar and sidebar show it. */
const SearchPicture = () => (
  <div className="mrn-wt-stack">
    <div className="mrn-wt-input">
      <Icon icon="search" size={14} />
      <span>45-1234567</span>
    </div>
    <div className="mrn-wt-result">
      <strong>Sunrise Diner Inc</strong>
      <span className={Classes.TEXT_MUTED}>EIN 45-1234567 · Tampa, FL</span>
      <span className="mrn-wt-tags">
        <Tag intent={Intent.DANGER} minimal>
          Default Account
        </Tag>
        <Tag intent={Intent.WARNING} minimal>
          Slow Pay
        </Tag>
      </span>
    </div>
  </div>
);

/** A merchant page's notes: category, date, the funder that reported it. */
const MerchantPicture = ({ withSource }: { withSource?: boolean }) => (
  <div className="mrn-wt-stack">
    <div className="mrn-wt-note">
      <span className="mrn-wt-note-head">
        <Tag intent={Intent.DANGER}>Default Account</Tag>
        <span className={Classes.TEXT_MUTED}>04/12/2026 · Summit Capital Funding</span>
      </span>
      <span>Defaulted on the advance in April.</span>
      {withSource && (
        <Tag minimal icon="office" className="mrn-wt-chip">
          Broker/ISO: Main Street Brokers
        </Tag>
      )}
    </div>
    <div className="mrn-wt-note">
      <span className="mrn-wt-note-head">
        <Tag intent={Intent.WARNING}>Stacking History</Tag>
        <span className={Classes.TEXT_MUTED}>03/02/2026 · Harbor Business Advance</span>
      </span>
      <span>Took a second position ten days after funding.</span>
    </div>
  </div>
);

/** Add Note: the categories a member reports in. */
const ReportPicture = () => (
  <div className="mrn-wt-stack">
    <div className="mrn-wt-dialog-title">
      <Icon icon="annotation" size={14} /> Add Note
    </div>
    <span className="mrn-wt-tags">
      {['Default Account', 'Slow Pay', 'Stacking History', 'Suspicious Activity', 'Default Satisfied'].map(
        (c) => (
          <Tag key={c} minimal round>
            {c}
          </Tag>
        ),
      )}
    </span>
    <span className={Classes.TEXT_MUTED}>90 DAY CONTRIBUTION 1.8%</span>
  </div>
);

/** EIN search history: searches a month over six months. */
const HistoryPicture = () => {
  const months = [
    ['Nov', 1],
    ['Dec', 0],
    ['Jan', 2],
    ['Feb', 3],
    ['Mar', 7],
    ['Apr', 11],
  ] as const;
  return (
    <div className="mrn-wt-stack">
      <span className={Classes.TEXT_MUTED}>45-1234567 · searched 24 times in 6 months</span>
      <div className="mrn-wt-bars">
        {months.map(([month, count]) => (
          <span key={month} className="mrn-wt-bar-col">
            <span className="mrn-wt-bar" style={{ height: `${8 + count * 6}px` }} />
            <span className="mrn-wt-bar-label">{month}</span>
          </span>
        ))}
      </div>
    </div>
  );
};

/** What a watcher receives: the e-mail's subject and the webhook's event type. */
const WatchPicture = () => (
  <div className="mrn-wt-stack">
    <div className="mrn-wt-switch">
      <span className="mrn-wt-switch-track">
        <span className="mrn-wt-switch-knob" />
      </span>
      Subscription Enabled
    </div>
    <div className="mrn-wt-mail">
      <Icon icon="envelope" size={14} />
      <span>Note Added: Sunrise Diner Inc (EIN 45-1234567)</span>
    </div>
    <div className="mrn-wt-mail">
      <Icon icon="send-message" size={14} />
      <code>merchant.note_added</code>
      <Tag minimal intent={Intent.SUCCESS}>
        HTTP 204
      </Tag>
    </div>
  </div>
);

/** The partner API: one call, its answer. */
const ApiPicture = () => (
  <pre className="mrn-wt-code">
    {
      'GET /api/v2/merchants/123456789\nAuthorization: Bearer <API token>\n\n200 { "errors": [], "data": [ … ] }'
    }
  </pre>
);

const STEPS = {
  search: {
    icon: 'search',
    title: 'Search before you fund',
    text: (
      <>
        Type a full EIN or the legal name. One match opens the merchant; none offers to add it. Keyword
        searches show up to {PLANS.BASIC.keywordMatchLimit} merchants on BASIC, {PLANS.PRO.keywordMatchLimit}{' '}
        on PRO.
      </>
    ),
    picture: <SearchPicture />,
  },
  merchant: {
    icon: 'shop',
    title: 'Read what other funders saw',
    text: 'The merchant page lists every note by category and date, and which funder reported it: defaults, slow pay, stacking.',
    picture: <MerchantPicture />,
  },
  report: {
    icon: 'annotation',
    title: 'Report what you learn',
    text: 'Add merchants and notes from your own book. To keep searching, an account adds at least 0.5% of the merchants it searches over 90 days.',
    picture: <ReportPicture />,
  },
  history: {
    icon: 'timeline-line-chart',
    title: 'See who else is looking',
    text: 'EIN search history shows how often the network searched a merchant over six months, even before anyone reported it: a stacking signal.',
    picture: <HistoryPicture />,
  },
  source: {
    icon: 'office',
    title: 'Know where a record came from',
    text: 'Submission source data shows whether a note came in-house/retail or through a broker/ISO, and which broker.',
    picture: <MerchantPicture withSource />,
  },
  watch: {
    icon: 'eye-open',
    title: 'Watch EINs',
    text: 'Subscribe to the merchants you funded. When another member reports on one, your team gets an e-mail and your systems a signed webhook.',
    picture: <WatchPicture />,
  },
  api: {
    icon: 'code',
    title: 'Use the partner API',
    text: 'Search and report from your own underwriting system with the REST API; a sandbox lets you try it first.',
    picture: <ApiPicture />,
  },
} satisfies Record<string, Step>;

const TOURS = {
  /** /membership: the network for someone choosing a plan. */
  network: [STEPS.search, STEPS.merchant, STEPS.report, STEPS.watch],
  /** /pro and the Membership tab: what PRO adds. */
  pro: [STEPS.history, STEPS.source, STEPS.watch, STEPS.api],
} as const;

/** The product shown in steps with pictures, where the specs place an introduction video. */
export function ProductWalkthrough({
  tour,
  title,
  framed,
}: {
  tour: keyof typeof TOURS;
  title: string;
  /** On a card of its own (a page section), rather than inside another card. */
  framed?: boolean;
}) {
  const id = useId();
  // A card's title on a card of its own; a sub-heading inside another card.
  const Heading = framed ? H4 : H5;
  const body = (
    <section className="mrn-walkthrough" aria-labelledby={id}>
      <Heading id={id} className="mrn-walkthrough-title">
        {title}
      </Heading>
      <ol className="mrn-walkthrough-steps">
        {TOURS[tour].map((step, index) => (
          <li key={step.title} className="mrn-walkthrough-step">
            <div className="mrn-walkthrough-picture" aria-hidden="true">
              {step.picture}
            </div>
            <div className="mrn-walkthrough-text">
              <span className="mrn-walkthrough-number" aria-hidden="true">
                {index + 1}
              </span>
              <div>
                <strong className="mrn-walkthrough-step-title">
                  <Icon icon={step.icon} size={14} /> {step.title}
                </strong>
                <p>{step.text}</p>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
  return framed ? <Card elevation={1}>{body}</Card> : body;
}
