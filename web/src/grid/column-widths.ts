/** A column's sizing: its preferred width, its share of spare width and the least it may shrink to. */
export interface ColumnSize {
  /** Preferred width in pixels. */
  width: number;
  /** Share of the width left over when the columns are narrower than the table (0: keeps its width). */
  flex: number;
  /** Narrowest width: the header's text on one line, never cut or broken inside a word. */
  min: number;
}

/**
 * The widths to draw: each column at the width the user dragged it to, else its preferred width, never
 * below its minimum; space the columns leave free is shared by the flexible columns the user has not
 * sized. Wider than `available` is fine: the table then scrolls sideways inside its card.
 */
export function fitColumnWidths(
  columns: readonly ColumnSize[],
  userWidths: readonly (number | undefined)[],
  available: number,
): number[] {
  const widths = columns.map((c, i) => Math.round(Math.max(c.min, userWidths[i] ?? c.width)));
  const spare = Math.floor(available) - widths.reduce((sum, w) => sum + w, 0);
  const growing = columns
    .map((c, i) => ({ i, flex: userWidths[i] === undefined ? c.flex : 0 }))
    .filter((c) => c.flex > 0);
  const shares = growing.reduce((sum, c) => sum + c.flex, 0);
  if (spare <= 0 || shares === 0) return widths;
  let given = 0;
  for (const { i, flex } of growing) {
    const extra = Math.floor((spare * flex) / shares);
    widths[i] = (widths[i] ?? 0) + extra;
    given += extra;
  }
  // Rounding leaves a few pixels: the last growing column takes them, so the columns meet the edge.
  const last = growing[growing.length - 1]!.i;
  widths[last] = (widths[last] ?? 0) + spare - given;
  return widths;
}

/** A width the user dragged a column to, kept within its minimum. */
export const clampColumnWidth = (column: ColumnSize, width: number): number =>
  Math.round(Math.max(column.min, width));
