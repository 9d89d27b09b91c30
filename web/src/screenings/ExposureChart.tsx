import { Intent } from '@blueprintjs/core';
import type { SignalGroup } from '@mrn/contracts';
import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import type { KeyboardEvent } from 'react';
import { niceTicks } from '../analytics/chart-ticks.ts';
import { categoryIntent } from '../merchants/category-intent.ts';
import { useElementWidth } from '../ui/use-element-width.ts';
import { type ExposureBar, formatPercent, merchantCount } from './screening.ts';

// Blueprint's palette, as the notes' category tags are coloured: defaults and fraud red, payment
// trouble orange, the rest gray.
const FILL: Record<string, string> = {
  [Intent.DANGER]: '#cd4246',
  [Intent.WARNING]: '#c87619',
  [Intent.NONE]: '#738091',
};
const AXIS = '#5f6b7c';
const GRID = '#e5e8eb';
const TEXT = '#1c2127';
const SELECTED = 'rgba(45, 114, 210, 0.1)';
/** Below this width a group's name sits above its bar instead of beside it. */
const NARROW = 560;

/**
 * The portfolio's exposure by category (issue 32): a horizontal bar a category group, worst first, its
 * length the merchants found with a live note in it in the window chosen, with their count and share of
 * the merchants found. Each bar is a button that lists those merchants in the report below.
 */
export function ExposureChart({
  title,
  bars,
  found,
  windowPhrase,
  selected,
  onSelect,
}: {
  title: string;
  bars: ExposureBar[];
  found: number;
  /** "in the last 90 days" */
  windowPhrase: string;
  selected: SignalGroup | undefined;
  onSelect: (group: SignalGroup) => void;
}) {
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const narrow = width < NARROW;
  // Narrow: the names sit above the bars, and the axis's first figure needs a few pixels.
  const labelWidth = narrow ? 8 : 190;
  const valueWidth = 104;
  const rowHeight = narrow ? 44 : 34;
  const barHeight = narrow ? 14 : 18;
  const margin = { top: 4, right: valueWidth, bottom: 28, left: labelWidth };
  const innerWidth = Math.max(60, width - margin.left - margin.right);
  const innerHeight = bars.length * rowHeight;
  const ticks = niceTicks(Math.max(0, ...bars.map((b) => b.merchants)), narrow ? 3 : 5);
  const x = scaleLinear<number>({ domain: [0, ticks[ticks.length - 1] ?? 1], range: [0, innerWidth] });
  const y = scaleBand<string>({ domain: bars.map((b) => b.group), range: [0, innerHeight] });

  const pressed = (event: KeyboardEvent, group: SignalGroup) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onSelect(group);
  };

  return (
    <div ref={ref} className="mrn-chart mrn-exposure-chart">
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG cannot be a fieldset; the group names its bars */}
      <svg width={width} height={margin.top + innerHeight + margin.bottom} role="group" aria-label={title}>
        <Group left={margin.left} top={margin.top}>
          {ticks.map((t) => (
            <line key={t} x1={x(t)} x2={x(t)} y1={0} y2={innerHeight} stroke={GRID} />
          ))}
          {bars.map((b) => {
            const top = y(b.group) ?? 0;
            const barTop = narrow ? top + 22 : top + (rowHeight - barHeight) / 2;
            const length = b.merchants > 0 ? Math.max(2, x(b.merchants)) : 0;
            const figure = `${b.merchants.toLocaleString('en-US')} (${formatPercent(b.percent)})`;
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a button; it lists the group's merchants
              <g
                key={b.group}
                role="button"
                tabIndex={0}
                aria-pressed={selected === b.group}
                aria-label={`${b.label}: ${merchantCount(b.merchants)} reported ${windowPhrase}, ${formatPercent(b.percent)} of the ${found.toLocaleString('en-US')} found. List them.`}
                className="mrn-exposure-bar"
                onClick={() => onSelect(b.group)}
                onKeyDown={(event) => pressed(event, b.group)}
              >
                <rect
                  className="mrn-exposure-row"
                  x={-labelWidth}
                  y={top}
                  width={labelWidth + innerWidth + valueWidth}
                  height={rowHeight}
                  fill={selected === b.group ? SELECTED : 'transparent'}
                />
                <text
                  x={narrow ? 0 : -10}
                  y={narrow ? top + 12 : top + rowHeight / 2}
                  textAnchor={narrow ? 'start' : 'end'}
                  dominantBaseline="central"
                  fontSize={12}
                  fontWeight={selected === b.group ? 600 : 400}
                  fill={TEXT}
                >
                  {b.label}
                </text>
                <rect
                  x={0}
                  y={barTop}
                  width={length}
                  height={barHeight}
                  rx={2}
                  fill={FILL[categoryIntent(b.category)] ?? FILL[Intent.NONE]}
                />
                <text
                  x={length + 6}
                  y={barTop + barHeight / 2}
                  dominantBaseline="central"
                  fontSize={12}
                  fill={b.merchants > 0 ? TEXT : AXIS}
                >
                  {figure}
                </text>
              </g>
            );
          })}
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={ticks}
            tickFormat={(v) => Number(v).toLocaleString('en-US')}
            stroke={AXIS}
            tickStroke={AXIS}
            tickLabelProps={{ fill: AXIS, fontSize: 11, textAnchor: 'middle' }}
          />
        </Group>
      </svg>
    </div>
  );
}
