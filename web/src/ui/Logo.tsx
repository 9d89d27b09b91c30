import { PRODUCT_NAME } from '../product.ts';

/** The product mark (a shield with a network node) and name. */
export function Logo({ showName = true }: { showName?: boolean }) {
  return (
    <span className="mrn-logo">
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
        <path d="M12 1.5 3 5v6.2c0 5.4 3.8 10.3 9 11.8 5.2-1.5 9-6.4 9-11.8V5l-9-3.5Z" fill="#2d72d2" />
        <circle cx="12" cy="9" r="2.2" fill="#fff" />
        <circle cx="7.8" cy="15" r="1.7" fill="#fff" />
        <circle cx="16.2" cy="15" r="1.7" fill="#fff" />
        <path d="M12 9 7.8 15h8.4L12 9" stroke="#fff" strokeWidth="1.2" fill="none" />
      </svg>
      {showName && <span className="mrn-logo-name">{PRODUCT_NAME}</span>}
    </span>
  );
}
