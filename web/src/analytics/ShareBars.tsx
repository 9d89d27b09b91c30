/** Horizontal bars of shares (searches by source, hits by category): label, bar, count and percent. */
export function ShareBars({
  title,
  rows,
  color,
}: {
  title: string;
  rows: { label: string; total: number; percent: number }[];
  color: string;
}) {
  return (
    <ul className="mrn-share-bars" aria-label={title}>
      {rows.map((r) => (
        <li key={r.label} className="mrn-share-bar">
          <span className="mrn-share-label">{r.label}</span>
          <span className="mrn-share-track" aria-hidden="true">
            <span
              className="mrn-share-fill"
              style={{ width: `${Math.min(100, r.percent)}%`, background: color }}
            />
          </span>
          <span className="mrn-share-value">
            {r.total.toLocaleString('en-US')} (
            {r.percent.toLocaleString('en-US', { maximumFractionDigits: 1 })}%)
          </span>
        </li>
      ))}
    </ul>
  );
}
