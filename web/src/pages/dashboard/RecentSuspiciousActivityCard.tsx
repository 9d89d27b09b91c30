import { Card, H4, NonIdealState } from '@blueprintjs/core';

/** Recent notes in category Suspicious Activity; listed once merchants and notes exist. */
export function RecentSuspiciousActivityCard() {
  return (
    <Card className="mrn-card" elevation={1}>
      <H4>Recent Suspicious Activity</H4>
      <NonIdealState
        icon="shield"
        title="No suspicious activity reported yet"
        description="Merchants recently reported with a Suspicious Activity note will be listed here."
      />
    </Card>
  );
}
