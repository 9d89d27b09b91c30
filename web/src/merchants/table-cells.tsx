import { Tag } from '@blueprintjs/core';
import { categoryIntent } from './category-intent.ts';
import { displayEin, formatDate } from './format.ts';

/** The EIN/BN column of a merchant table, kept on one line. */
export function EinCell({ fein }: { fein: string }) {
  return (
    <td data-label="EIN/BN" className="mrn-nowrap">
      {displayEin(fein)}
    </td>
  );
}

/** A date column, kept on one line; the label heads the cell when a phone stacks the row. */
export function DateCell({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <td data-label={label} className="mrn-nowrap">
      {formatDate(value)}
    </td>
  );
}

/** A note category in a table: a minimal tag coloured by how serious the category is. */
export function CategoryTag({ category }: { category: string }) {
  return (
    <Tag intent={categoryIntent(category)} minimal>
      {category}
    </Tag>
  );
}

/** A merchant's latest note category, or a dash while it has no notes. */
export function LatestCategoryCell({ category }: { category: string | null }) {
  return <td data-label="Latest Note Category">{category ? <CategoryTag category={category} /> : '—'}</td>;
}
