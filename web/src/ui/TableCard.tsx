import { Card } from '@blueprintjs/core';
import { DataTable, type DataTableProps } from './DataTable.tsx';

/** A list's table on a flush card of its own, for pages and tabs whose heading sits outside the card. */
export function TableCard(props: DataTableProps) {
  return (
    <Card className="mrn-table-card" elevation={1}>
      <DataTable {...props} />
    </Card>
  );
}
