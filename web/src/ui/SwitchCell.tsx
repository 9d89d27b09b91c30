import { Switch } from '@blueprintjs/core';

interface SwitchCellProps {
  /** The column's name, heading the cell when a phone stacks the row. */
  label: string;
  /** Names the switch for screen readers, who do not see the column header beside it. */
  ariaLabel: string;
  checked: boolean;
  disabled: boolean;
  onChange: () => void;
}

/** A table cell holding one on/off setting of the row. */
export function SwitchCell({ label, ariaLabel, checked, disabled, onChange }: SwitchCellProps) {
  return (
    <td data-label={label}>
      <Switch
        className="mrn-cell-switch"
        checked={checked}
        disabled={disabled}
        onChange={onChange}
        aria-label={ariaLabel}
      />
    </td>
  );
}
