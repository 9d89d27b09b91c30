import { Classes, Icon } from '@blueprintjs/core';
import { MESSAGES } from '@mrn/contracts';
import { Link } from 'react-router-dom';
import { PRO_SITE_PATH, PRODUCT_NAME } from '../product.ts';
import { PATHS } from '../routing/paths.ts';

const FOOTER_LINKS = [
  { to: PATHS.developers, label: 'Developers' },
  { to: PATHS.termsOfUse, label: 'Terms of Use' },
  { to: PATHS.privacyPolicy, label: 'Privacy Policy' },
  { to: PATHS.disputeProcess, label: 'Dispute Process' },
] as const;

export function Footer() {
  return (
    <footer className="mrn-footer">
      <nav className="mrn-footer-links" aria-label="Footer">
        {FOOTER_LINKS.map((link) => (
          <Link key={link.to} to={link.to}>
            {link.label}
          </Link>
        ))}
        <a href={PRO_SITE_PATH} target="_blank" rel="noopener noreferrer">
          PRO site <Icon icon="share" size={12} />
        </a>
      </nav>
      <p className={Classes.TEXT_MUTED}>{MESSAGES.disclaimer}</p>
      <p className={Classes.TEXT_MUTED}>
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </p>
    </footer>
  );
}
