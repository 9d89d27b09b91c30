import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { useElementWidth } from '../ui/use-element-width.ts';
import { yTicks } from './chart-scale.ts';
import { monthLabel } from './format.ts';

// Blueprint palette: blue3 for the line, gray for axes.
const LINE = '#2d72d2';
const AXIS = '#5f6b7c';
const GRID = '#e5e8eb';
const HEIGHT = 220;
const MARGIN = { top: 12, right: 20, bottom: 32, left: 36 };

/** Searches per month over the last 6 months; the y-axis steps by 5 (core spec §2). */
export default function SearchHistoryChart({ months }: { months: { month: string; count: number }[] }) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const innerWidth = Math.max(120, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const ticks = yTicks(Math.max(0, ...months.map((m) => m.count)));
  const top = ticks[ticks.length - 1] ?? 5;
  const narrow = width < 480;

  const x = scalePoint<string>({ domain: months.map((m) => m.month), range: [0, innerWidth], padding: 0.3 });
  const y = scaleLinear<number>({ domain: [0, top], range: [innerHeight, 0] });
  const xOf = (month: string) => x(month) ?? 0;
  const summary = months.map((m) => `${monthLabel(m.month)}: ${m.count}`).join(', ');

  return (
    <div ref={ref} className="mrn-chart">
      <svg width={width} height={HEIGHT} role="img" aria-label={`Searches per month. ${summary}`}>
        <Group left={MARGIN.left} top={MARGIN.top}>
          {ticks.map((t) => (
            <line key={t} x1={0} x2={innerWidth} y1={y(t)} y2={y(t)} stroke={GRID} />
          ))}
          <AxisLeft
            scale={y}
            tickValues={ticks}
            tickFormat={(v) => String(v)}
            stroke={AXIS}
            tickStroke={AXIS}
            tickLabelProps={{ fill: AXIS, fontSize: 11, textAnchor: 'end', dx: -4, dy: 3 }}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickFormat={(m) => (narrow ? monthLabel(m).slice(0, 3) : monthLabel(m))}
            stroke={AXIS}
            tickStroke={AXIS}
            tickLabelProps={{ fill: AXIS, fontSize: 11, textAnchor: 'middle' }}
          />
          <LinePath
            data={months}
            x={(m) => xOf(m.month)}
            y={(m) => y(m.count)}
            stroke={LINE}
            strokeWidth={2}
          />
          {months.map((m) => (
            <circle
              key={m.month}
              cx={xOf(m.month)}
              cy={y(m.count)}
              r={4}
              fill="#fff"
              stroke={LINE}
              strokeWidth={2}
            >
              <title>{`${monthLabel(m.month)}: ${m.count} ${m.count === 1 ? 'search' : 'searches'}`}</title>
            </circle>
          ))}
        </Group>
      </svg>
    </div>
  );
}
