import '@blueprintjs/table/lib/css/table.css';
import './grid.css';
import { HotkeysContext, type HotkeysContextInstance, Icon } from '@blueprintjs/core';
import {
  Cell,
  Column,
  ColumnHeaderCell,
  FocusMode,
  Regions,
  RenderMode,
  SelectionModes,
  Table,
} from '@blueprintjs/table';
import type { SortDirection } from '@mrn/contracts';
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useElementWidth } from '../ui/use-element-width.ts';
import { type ColumnSize, clampColumnWidth, fitColumnWidths } from './column-widths.ts';

// A data-dense list on @blueprintjs/table (DESIGN §6): rows are virtualised (only those in view are
// drawn), columns are resized by dragging their header's edge, and the keyboard moves a focused cell.
// A list sorted on the server has a button in each sortable column's header: it shows the order, and a
// click, or Enter on it, sorts by that column (again: the other way). Arrow Up from the first row
// reaches the headers, Arrow Left and Right move along them, Arrow Down comes back to the rows.
// This module is imported only by the pages that show such a list, so the table's code and styles
// stay out of the first screen's chunks (DESIGN §8).

export interface GridColumn<R> {
  id: string;
  /** Header text: always on one line, the column never narrower than it. */
  name: string;
  /** Preferred width in pixels; 0 for the header's own width. */
  width: number;
  /** Share of the width the columns leave free (default 0: keeps its width). */
  flex?: number;
  render: (row: R) => ReactNode;
  /** The cell as plain text: its tooltip when cut short, and what a screen reader hears on reaching it. */
  text?: (row: R) => string;
  /** Numbers: aligned to the end. */
  align?: 'end';
  /** The cell holds controls named on their own (switches, buttons with tooltips): no native tooltip. */
  controls?: boolean;
  /** The key the list's route sorts by for this column (`sort=`): its header sorts the list. */
  sort?: string;
}

/** How a list sorted on the server is sorted now, and how to sort it otherwise. */
export interface GridSorting {
  sort: string;
  direction: SortDirection;
  /** The direction each key is sorted in first (names A to Z, dates newest first): the route's spec. */
  first: Readonly<Record<string, SortDirection>>;
  onSort: (sort: string, direction: SortDirection) => void;
}

export interface DataGridProps<R> {
  /** Names the grid for assistive technology ("Funders"). */
  label: string;
  rows: readonly R[];
  columns: readonly GridColumn<R>[];
  /** Row height in pixels (one line of text with a control, or two lines). */
  rowHeight?: number;
  /** The row's name, said first when a screen reader hears the focused cell. */
  rowName?: (row: R) => string;
  /** Opens the row's page: Enter on the focused cell, a double click, or a click when `openOnClick`. */
  onOpen?: (row: R) => void;
  openOnClick?: boolean;
  /** A fixed height; otherwise the grid fits its rows, up to 70 % of the window, and scrolls beyond. */
  height?: number;
  /** A newer page is loading: the rows dim until it arrives. */
  stale?: boolean;
  /** What the rows are (page, size, search, filter): when it changes the grid goes back to its first row. */
  resetKey?: string;
  /** The list is sorted on the server: the headers of the columns with a `sort` key sort it. */
  sorting?: GridSorting;
}

/** Blueprint's column header row. */
const HEADER_HEIGHT = 30;
/** Around a header's text: Blueprint's padding (8 + 8) and room for the resize handle. */
const HEADER_PADDING = 20;
const KEYS_HINT =
  'Arrow keys move between cells. Page Up and Page Down move a screen, Home and End to the first and ' +
  'last column, Control+Home and Control+End to the first and last row.';
const SORT_HINT =
  'Arrow Up from the first row reaches the column headers: Enter on one sorts by its column, again the ' +
  'other way; Arrow Left and Right move between headers, Arrow Down comes back to the rows.';
/** A sortable header's icon and the room it takes beside the name (14 px and a 4 px gap). */
const SORT_ICONS = { asc: 'chevron-up', desc: 'chevron-down', none: 'double-caret-vertical' } as const;
const SORT_ICON_SPACE = 18;
const SORT_STATE = {
  asc: 'sorted ascending',
  desc: 'sorted descending',
  none: 'not sorted',
} as const;
/** Keys the table itself acts on; inside a cell they belong to the link, switch or button there. */
const TABLE_KEYS = new Set(['Tab', 'Enter', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
/** Blueprint registers its table keys with a HotkeysProvider when there is one; this says there is, without a dialog. */
const NO_HOTKEYS_DIALOG: HotkeysContextInstance = [
  { hasProvider: true, hotkeys: [], isDialogOpen: false },
  () => undefined,
];
/** What a click inside a cell acts on itself, instead of opening the row. */
const CONTROLS = 'a, button, input, select, textarea, label, [role="button"], [tabindex]';
/** A press whose click never came (it ended off the grid): its move waits no longer than this. */
const PRESS_WITHOUT_CLICK_MS = 500;
/** Where a press put the focused cell, and whether a screen reader is told. */
type PendingMove = { row: number; col: number; announce: boolean };
/** No cell, row or column is ever selected: the grid has a focused cell only. */
const NO_REGIONS: never[] = [];

let scrollbar: number | undefined;
/** The width of a scrollbar on this screen (0 where they overlay the content). */
function scrollbarWidth(): number {
  if (scrollbar === undefined) {
    const probe = document.createElement('div');
    probe.style.cssText = 'position:absolute;top:-9999px;width:100px;height:100px;overflow:scroll';
    document.body.append(probe);
    scrollbar = probe.offsetWidth - probe.clientWidth;
    probe.remove();
  }
  return scrollbar;
}

let measure: CanvasRenderingContext2D | null | undefined;
/** The width of a header's text in the grid's header font. */
function headerTextWidth(text: string): number {
  measure ??= document.createElement('canvas').getContext('2d');
  if (!measure) return text.length * 9;
  measure.font = `600 14px ${getComputedStyle(document.body).fontFamily}`;
  return measure.measureText(text).width;
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** Keys pressed on a link, switch or button inside a cell do what they do there, not move the grid. */
const keepKeysInCell = (event: KeyboardEvent) => {
  if (TABLE_KEYS.has(event.key)) event.stopPropagation();
};

/**
 * Blueprint draws the headers twice: in the top quadrant, the one seen and used, and under it in the
 * main quadrant's. The hidden copy's button is taken out of the tab order and of what a screen reader reads.
 */
const hideCoveredCopy = (button: HTMLButtonElement | null) => {
  if (!button?.closest('.bp6-table-quadrant-main')) return;
  button.tabIndex = -1;
  button.setAttribute('aria-hidden', 'true');
};

/** The header's button of column `col`, in the quadrant a person sees. */
const headerButton = (grid: HTMLElement | null, col: number) =>
  grid?.querySelector<HTMLButtonElement>(`.bp6-table-quadrant-top .mrn-grid-sort[data-col="${col}"]`) ?? null;

export function DataGrid<R>({
  label,
  rows,
  columns,
  rowHeight = 40,
  rowName,
  onOpen,
  openOnClick = false,
  height,
  stale = false,
  resetKey = '',
  sorting,
}: DataGridProps<R>) {
  const { ref: boxRef, width: boxWidth } = useElementWidth<HTMLDivElement>(800);
  const gridRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<Table>(null);
  const hintId = useId();
  const [userWidths, setUserWidths] = useState<Record<string, number>>({});
  // Bumped by every drag: the table lays its columns out again even when the width it is given back is
  // the one it had (a column dragged below its header returns to the header's width).
  const [resizes, setResizes] = useState(0);
  const [focused, setFocused] = useState({ row: 0, col: 0 });
  const [announcement, setAnnouncement] = useState('');

  // The focused cell stays inside the rows shown (a shorter page, a narrower filter).
  const lastRow = Math.max(0, rows.length - 1);
  const lastCol = Math.max(0, columns.length - 1);
  const row = Math.min(focused.row, lastRow);
  const col = Math.min(focused.col, lastCol);
  const focusedRef = useRef({ row, col });
  focusedRef.current = { row, col };
  // A press (mouse, pen or touch) moves the focused cell once it is over, after the click it makes.
  // Moved at once, Blueprint scrolls the whole cell into view while the button is still down: in a grid
  // scrolled sideways the switch or button under the pointer slid away and the click was lost (the trash
  // button of a half-hidden Delete column did nothing). `move` is where the press put the focused cell.
  const press = useRef<{ move: PendingMove | null } | null>(null);

  const sortable = (column: GridColumn<R>) => sorting !== undefined && column.sort !== undefined;
  const headerKey = columns
    .map((c) => `${c.id}:${c.name}:${c.width}:${c.flex ?? 0}:${sortable(c)}`)
    .join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key holds what the sizes are made of
  const sizes = useMemo<ColumnSize[]>(
    () =>
      columns.map((c) => ({
        width: c.width,
        flex: c.flex ?? 0,
        min: Math.ceil(headerTextWidth(c.name)) + HEADER_PADDING + (sortable(c) ? SORT_ICON_SPACE : 0),
      })),
    [headerKey],
  );

  const natural = HEADER_HEIGHT + rows.length * rowHeight;
  const cap = height ?? Math.max(240, Math.round(window.innerHeight * 0.7));
  const bar = scrollbarWidth();
  const available = boxWidth - (natural > cap ? bar : 0);
  const fitted = fitColumnWidths(
    sizes,
    columns.map((c) => userWidths[c.id]),
    available,
  );
  const widthsKey = fitted.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the same widths keep the same array
  const columnWidths = useMemo(() => fitted, [widthsKey]);
  const sideways = fitted.reduce((sum, w) => sum + w, 0) > available;
  const gridHeight = height ?? Math.min(cap, natural + (sideways ? bar : 0) + 1);

  const focusedRegion = useMemo(
    () => ({ type: FocusMode.CELL as const, row, col, focusSelectionIndex: 0 }),
    [row, col],
  );

  const describe = useCallback(
    (r: number, c: number) => {
      const item = rows[r];
      const column = columns[c];
      if (item === undefined || !column) return '';
      const name = rowName?.(item);
      const text = column.text?.(item) ?? '';
      return `${name ? `${name}, ` : ''}${column.name}: ${text || 'blank'}. Row ${r + 1} of ${rows.length}.`;
    },
    [rows, columns, rowName],
  );

  /**
   * Moves the focused cell, kept inside the grid; `scroll` brings its row or column into view (arrow keys
   * are scrolled by Blueprint itself), `announce` tells a screen reader where it now is.
   */
  const moveTo = useCallback(
    (
      r: number,
      c: number,
      { scroll, announce = true }: { scroll?: 'row' | 'column'; announce?: boolean } = {},
    ) => {
      const next = { row: Math.max(0, Math.min(r, lastRow)), col: Math.max(0, Math.min(c, lastCol)) };
      focusedRef.current = next;
      if (press.current && !scroll) {
        // Blueprint's mouse down and the focus of a control in the cell: one move, told if either asks.
        press.current.move = { ...next, announce: announce || (press.current.move?.announce ?? false) };
        return;
      }
      setFocused(next);
      if (announce) setAnnouncement(describe(next.row, next.col));
      if (scroll === 'row') tableRef.current?.scrollToRegion(Regions.row(next.row));
      if (scroll === 'column') tableRef.current?.scrollToRegion(Regions.column(next.col));
    },
    [describe, lastRow, lastCol],
  );

  const moveToRef = useRef(moveTo);
  moveToRef.current = moveTo;

  // The press starts on the grid and ends after its click (a tap's click follows its pointer up), or on
  // its own when no click comes (a drag that ended elsewhere, a touch taken over by scrolling).
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    let timer: number | undefined;
    const end = () => {
      window.clearTimeout(timer);
      const pressed = press.current;
      press.current = null;
      if (pressed?.move)
        moveToRef.current(pressed.move.row, pressed.move.col, { announce: pressed.move.announce });
    };
    const endSoon = (ms: number) => {
      if (!press.current) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(end, ms);
    };
    const down = () => {
      window.clearTimeout(timer);
      press.current ??= { move: null };
    };
    // After the click's own handlers: the click still finds what was under the pointer.
    const clicked = () => endSoon(0);
    const up = () => endSoon(PRESS_WITHOUT_CLICK_MS);
    grid.addEventListener('pointerdown', down, true);
    window.addEventListener('click', clicked, true);
    window.addEventListener('pointerup', up, true);
    window.addEventListener('pointercancel', end, true);
    return () => {
      grid.removeEventListener('pointerdown', down, true);
      window.removeEventListener('click', clicked, true);
      window.removeEventListener('pointerup', up, true);
      window.removeEventListener('pointercancel', end, true);
      window.clearTimeout(timer);
      press.current = null;
    };
  }, []);

  const onFocusedRegion = useCallback(
    (region: { row: number; col?: number; type: FocusMode }) => {
      if (region.type === FocusMode.CELL) moveTo(region.row, region.col ?? 0);
    },
    [moveTo],
  );

  const onColumnWidthChanged = useCallback(
    (index: number, size: number) => {
      const column = columns[index];
      const sized = sizes[index];
      if (!column || !sized) return;
      setUserWidths((previous) => ({ ...previous, [column.id]: clampColumnWidth(sized, size) }));
      setResizes((n) => n + 1);
    },
    [columns, sizes],
  );

  // Other rows (another page, another filter): back to the first row, in the same column.
  const shownKey = useRef(resetKey);
  useEffect(() => {
    if (shownKey.current === resetKey) return;
    shownKey.current = resetKey;
    setFocused((previous) => ({ row: 0, col: previous.col }));
    tableRef.current?.scrollToRegion(Regions.row(0));
  }, [resetKey]);

  // The table's focusable element: named, and told how its keys work.
  useEffect(() => {
    const root = gridRef.current?.firstElementChild;
    if (!root) return;
    root.setAttribute('role', 'application');
    root.setAttribute('aria-label', label);
    root.setAttribute('aria-describedby', hintId);
  }, [label, hintId]);

  /** The sortable columns, left to right. */
  const sortableCols = columns.flatMap((column, c) => (sortable(column) ? [c] : []));

  /**
   * Puts the keyboard on column `c`'s header button; a header cut off by the grid's edge (scrolled
   * sideways on a phone) is scrolled into view with the rows under it, one in view stays where it is.
   */
  const focusHeader = (c: number) => {
    const grid = gridRef.current;
    const button = headerButton(grid, c);
    if (!grid || !button) return;
    const shown = grid.getBoundingClientRect();
    const header = (button.closest('.bp6-table-header') ?? button).getBoundingClientRect();
    if (header.left < shown.left || header.right > shown.right)
      tableRef.current?.scrollToRegion(Regions.column(c));
    button.focus({ preventScroll: true });
  };

  /** Back from a header to the rows: the table itself, its focused cell on the first row of column `c`. */
  const backToRows = (c: number) => {
    const root = gridRef.current?.firstElementChild;
    if (root instanceof HTMLElement) root.focus({ preventScroll: true });
    moveTo(0, c, { scroll: 'row' });
  };

  const sortBy = (column: GridColumn<R>) => {
    if (!sorting || column.sort === undefined) return;
    const direction: SortDirection =
      sorting.sort === column.sort
        ? sorting.direction === 'asc'
          ? 'desc'
          : 'asc'
        : (sorting.first[column.sort] ?? 'asc');
    setAnnouncement(`Sorted by ${column.name}, ${direction === 'asc' ? 'ascending' : 'descending'}.`);
    sorting.onSort(column.sort, direction);
  };

  const onHeaderKeyDown = (event: KeyboardEvent<HTMLButtonElement>, c: number) => {
    const at = sortableCols.indexOf(c);
    switch (event.key) {
      case 'ArrowLeft':
      case 'ArrowRight': {
        const next = sortableCols[at + (event.key === 'ArrowLeft' ? -1 : 1)];
        if (next !== undefined) focusHeader(next);
        break;
      }
      case 'ArrowDown':
      case 'Escape':
        backToRows(c);
        break;
      default:
        // Enter and Space press the button; Tab moves on, as everywhere; the table's own keys stay out.
        if (TABLE_KEYS.has(event.key)) event.stopPropagation();
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  const headerRenderers = columns.map((column, c) => {
    if (!sorting || column.sort === undefined) return undefined;
    const state = sorting.sort === column.sort ? sorting.direction : 'none';
    return () => (
      <ColumnHeaderCell
        name={column.name}
        nameRenderer={() => (
          <button
            type="button"
            ref={hideCoveredCopy}
            className={classes('mrn-grid-sort', state !== 'none' && 'mrn-grid-sorted')}
            data-col={c}
            aria-label={`${column.name}, ${SORT_STATE[state]}`}
            onClick={() => sortBy(column)}
            onKeyDown={(event) => onHeaderKeyDown(event, c)}
          >
            <span className="mrn-grid-sort-name">{column.name}</span>
            <Icon icon={SORT_ICONS[state]} size={14} className="mrn-grid-sort-icon" />
          </button>
        )}
      />
    );
  });

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    // Only keys on the table itself: a focused link, switch or button in a cell keeps its own.
    if (event.target !== gridRef.current?.firstElementChild) return;
    const { row: r, col: c } = focusedRef.current;
    const pageRows = Math.max(1, Math.floor((gridHeight - HEADER_HEIGHT) / rowHeight) - 1);
    const toEnd = event.ctrlKey || event.metaKey;
    switch (event.key) {
      case 'ArrowUp': {
        // Above the first row: the headers of a sortable list (its own column's, else the nearest).
        const target =
          r === 0 && sortableCols.length > 0
            ? sortableCols.includes(c)
              ? c
              : sortableCols.reduce((best, s) => (Math.abs(s - c) < Math.abs(best - c) ? s : best))
            : undefined;
        if (target === undefined) return;
        focusHeader(target);
        break;
      }
      case 'Tab':
        // Tab leaves the grid, or reaches the links and controls inside it, as everywhere else.
        event.stopPropagation();
        return;
      case 'Enter': {
        const item = rows[r];
        if (onOpen && item !== undefined) onOpen(item);
        break;
      }
      case 'PageDown':
        moveTo(r + pageRows, c, { scroll: 'row' });
        break;
      case 'PageUp':
        moveTo(r - pageRows, c, { scroll: 'row' });
        break;
      case 'Home':
        if (toEnd) moveTo(0, c, { scroll: 'row' });
        else moveTo(r, 0, { scroll: 'column' });
        break;
      case 'End':
        if (toEnd) moveTo(lastRow, c, { scroll: 'row' });
        else moveTo(r, lastCol, { scroll: 'column' });
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  const onPointerOpen = (event: MouseEvent<HTMLDivElement>, double: boolean) => {
    if (!onOpen || (!double && !openOnClick)) return;
    const target = event.target as HTMLElement;
    const cell = target.closest('.bp6-table-cell');
    // A click on a cell's link, switch or button does what it does; one on a header opens nothing.
    const control = target.closest(CONTROLS);
    if (!cell || target.closest('.bp6-table-column-headers') || (control && cell.contains(control))) return;
    // The row pressed: the focused cell moves there only after this click.
    const item = rows[(press.current?.move ?? focusedRef.current).row];
    if (item !== undefined) onOpen(item);
  };

  const renderers = columns.map((column, c) => (r: number) => {
    const item = rows[r];
    if (item === undefined) return <Cell />;
    const text = column.controls ? undefined : column.text?.(item);
    return (
      <Cell
        className={classes(
          r % 2 === 1 && 'mrn-grid-odd',
          r === row && 'mrn-grid-row-focused',
          r === row && c === col && 'mrn-grid-cell-focused',
          column.align === 'end' && 'mrn-grid-end',
        )}
        interactive
        tooltip={text}
      >
        {/* biome-ignore lint/a11y/noStaticElementInteractions: passes focus and keys of the cell's own controls */}
        <div
          className="mrn-grid-cell"
          onKeyDown={keepKeysInCell}
          // A control focused inside a cell moves the focused cell there; the control announces itself.
          onFocus={() => moveTo(r, c, { announce: false })}
        >
          {column.render(item)}
        </div>
      </Cell>
    );
  });

  return (
    <div
      ref={boxRef}
      className={classes(
        'mrn-grid',
        stale && 'mrn-grid-stale',
        onOpen && openOnClick && 'mrn-grid-click-opens',
      )}
      data-focused-row={row}
      data-focused-col={col}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: the table inside is the focusable element; its keys are handled in the capture phase (Enter opens the row) */}
      <div
        ref={gridRef}
        className="mrn-grid-table"
        style={{ height: gridHeight }}
        onKeyDownCapture={onKeyDownCapture}
        onClick={(event) => onPointerOpen(event, false)}
        onDoubleClick={(event) => onPointerOpen(event, true)}
      >
        <HotkeysContext.Provider value={NO_HOTKEYS_DIALOG}>
          <Table
            ref={tableRef}
            numRows={rows.length}
            columnWidths={columnWidths}
            defaultRowHeight={rowHeight}
            enableRowHeader={false}
            enableRowResizing={false}
            enableMultipleSelection={false}
            selectionModes={SelectionModes.NONE}
            selectedRegions={NO_REGIONS}
            focusMode={FocusMode.CELL}
            focusedRegion={focusedRegion}
            onFocusedRegion={onFocusedRegion}
            onColumnWidthChanged={onColumnWidthChanged}
            minColumnWidth={40}
            renderMode={RenderMode.NONE}
            // New widths also need a new layout: Blueprint draws with the grid it had until these change.
            cellRendererDependencies={[
              rows,
              columns,
              row,
              col,
              columnWidths,
              resizes,
              sorting?.sort,
              sorting?.direction,
            ]}
          >
            {columns.map((column, c) => (
              <Column
                key={column.id}
                id={column.id}
                name={column.name}
                cellRenderer={renderers[c]}
                columnHeaderCellRenderer={headerRenderers[c]}
              />
            ))}
          </Table>
        </HotkeysContext.Provider>
      </div>
      <p id={hintId} className="mrn-visually-hidden">
        {[KEYS_HINT, onOpen && 'Enter opens the row.', sortableCols.length > 0 && SORT_HINT]
          .filter(Boolean)
          .join(' ')}
      </p>
      <div className="mrn-visually-hidden" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}
