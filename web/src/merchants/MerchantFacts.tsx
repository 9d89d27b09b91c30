import type { ReactNode } from 'react';

/** A list of label/value pairs (`Fact`s). */
export function MerchantFacts({ children }: { children: ReactNode }) {
  return <dl className="mrn-facts">{children}</dl>;
}

/** One label and its value; an empty value reads "—". */
export function Fact({ label, children }: { label: string; children?: ReactNode }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <div className="mrn-fact">
      <dt>{label}</dt>
      <dd>{empty ? '—' : children}</dd>
    </div>
  );
}
