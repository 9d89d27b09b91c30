import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { useState } from 'react';
import { useElementWidth } from '../ui/use-element-width.ts';
import { niceTicks, shortDay } from './chart-ticks.ts';

export interface Series<K extends string> {
  key: K;
  label: string;
  color: string;
}

const AXIS = '#5f6b7c';
const GRID = '#e5e8eb';
const HEIGHT = 240;
const MARGIN = { top: 12, right: 12, bottom: 32, left: 44 };

/**
 * Stacked bars per UTC day. Each day is focusable: hovering or tabbing to it shows its figures in a
 * tooltip (and screen readers read them from its label).
 */
export function DailyBarChart<K extends string, D extends string = never>({
  title,
  days,
  series,
  details = [],
}: {
  title: string;
  days: ({ day: string } & Record<K | D, number>)[];
  series: Series<K>[];
  /** Figures of the day shown with it but not drawn (hits beside the searches). */
  details?: { key: D; label: string }[];
}) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<string | null>(null);
  const innerWidth = Math.max(120, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const total = (d: Record<K, number>) => series.reduce((sum, s) => sum + d[s.key], 0);
  const ticks = niceTicks(Math.max(0, ...days.map(total)));
  const x = scaleBand<string>({ domain: days.map((d) => d.day), range: [0, innerWidth], padding: 0.25 });
  const y = scaleLinear<number>({ domain: [0, ticks[ticks.length - 1] ?? 1], range: [innerHeight, 0] });
  const every = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(innerWidth / 60))));
  const figures = [...series, ...details];
  const describe = (d: { day: string } & Record<K | D, number>) =>
    `${shortDay(d.day)}: ${figures.map((s) => `${s.label} ${d[s.key].toLocaleString('en-US')}`).join(', ')}`;
  const shown = days.find((d) => d.day === active);

  return (
    <div ref={ref} className="mrn-chart mrn-analytics-chart">
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG cannot be a fieldset; the group names the focusable days */}
      <svg width={width} height={HEIGHT} role="group" aria-label={title}>
        <Group left={MARGIN.left} top={MARGIN.top}>
          {ticks.map((t) => (
            <line key={t} x1={0} x2={innerWidth} y1={y(t)} y2={y(t)} stroke={GRID} />
          ))}
          <AxisLeft
            scale={y}
            tickValues={ticks}
            tickFormat={(v) => Number(v).toLocaleString('en-US')}
            stroke={AXIS}
            tickStroke={AXIS}
            tickLabelProps={{ fill: AXIS, fontSize: 11, textAnchor: 'end', dx: -4, dy: 3 }}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={days.filter((_, i) => (days.length - 1 - i) % every === 0).map((d) => d.day)}
            tickFormat={(d) => shortDay(d)}
            stroke={AXIS}
            tickStroke={AXIS}
            tickLabelProps={{ fill: AXIS, fontSize: 11, textAnchor: 'middle' }}
          />
          {days.map((d) => {
            let base = 0;
            const left = x(d.day) ?? 0;
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a button; it takes focus to show its figures
              <g
                key={d.day}
                role="button"
                tabIndex={0}
                aria-label={describe(d)}
                className="mrn-chart-day"
                onMouseEnter={() => setActive(d.day)}
                onMouseLeave={() => setActive(null)}
                onFocus={() => setActive(d.day)}
                onBlur={() => setActive(null)}
              >
                <rect x={left} y={0} width={x.bandwidth()} height={innerHeight} fill="transparent" />
                {series.map((s) => {
                  const value = d[s.key];
                  const top = y(base + value);
                  const height = y(base) - top;
                  base += value;
                  return value > 0 ? (
                    <rect key={s.key} x={left} y={top} width={x.bandwidth()} height={height} fill={s.color} />
                  ) : null;
                })}
                {active === d.day && (
                  <rect
                    x={left - 1}
                    y={y(total(d)) - 1}
                    width={x.bandwidth() + 2}
                    height={innerHeight - y(total(d)) + 1}
                    fill="none"
                    stroke="#1c2127"
                  />
                )}
              </g>
            );
          })}
        </Group>
      </svg>
      {shown && (
        <div
          className="mrn-chart-tooltip"
          role="status"
          style={{
            left: Math.min(
              Math.max(0, MARGIN.left + (x(shown.day) ?? 0) + x.bandwidth() / 2 - 80),
              Math.max(0, width - 170),
            ),
          }}
        >
          <strong>{shortDay(shown.day)}</strong>
          {series.map((s) => (
            <div key={s.key}>
              <span className="mrn-chart-swatch" style={{ background: s.color }} /> {s.label}:{' '}
              {shown[s.key].toLocaleString('en-US')}
            </div>
          ))}
          {details.map((s) => (
            <div key={s.key}>
              {s.label}: {shown[s.key].toLocaleString('en-US')}
            </div>
          ))}
        </div>
      )}
      <ul className="mrn-chart-legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key}>
            <span className="mrn-chart-swatch" style={{ background: s.color }} /> {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
