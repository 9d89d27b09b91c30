import { HTMLTable } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface DataTableProps {
  /** Visually hidden: for sighted readers the heading around the table already names it. */
  caption: ReactNode;
  columns: readonly string[];
  children: ReactNode;
  /** Classes added after the shared `mrn-table mrn-table-stack`. */
  className?: string;
  /** Classes added after the shared `mrn-table-scroll`. */
  scrollClassName?: string;
  /** Hover highlight and pointer, for rows that open something when clicked. */
  interactive?: boolean;
  compact?: boolean;
}

const withExtra = (base: string, extra?: string) => (extra ? `${base} ${extra}` : base);

/** A striped table that stacks into cards on a phone and scrolls sideways when too wide. */
export function DataTable({
  caption,
  columns,
  children,
  className,
  scrollClassName,
  interactive,
  compact,
}: DataTableProps) {
  return (
    <div className={withExtra('mrn-table-scroll', scrollClassName)}>
      <HTMLTable
        className={withExtra('mrn-table mrn-table-stack', className)}
        striped
        interactive={interactive}
        compact={compact}
      >
        <caption className="mrn-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </HTMLTable>
    </div>
  );
}
