import { Classes } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import './button-link.css';

/** A router link drawn as a Blueprint button (it navigates, so it is a link for assistive technology). */
export function ButtonLink({ to, text, primary }: { to: string; text: string; primary?: boolean }) {
  return (
    <Link
      to={to}
      className={`${Classes.BUTTON} ${primary ? Classes.INTENT_PRIMARY : Classes.MINIMAL} mrn-button-link`}
    >
      <span className={Classes.BUTTON_TEXT}>{text}</span>
    </Link>
  );
}
