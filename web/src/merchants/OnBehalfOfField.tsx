import { TextField } from '../ui/fields.tsx';

export const ON_BEHALF_OF_LABEL = 'Add on Behalf of (funder account id)';

/**
 * Platform administrators may add records on behalf of a funder (core spec §2, sent as
 * proxied_creator). There is no accounts list to pick from yet, so the account id is typed.
 */
export function OnBehalfOfField({
  id,
  value,
  onValueChange,
  onBlur,
  error,
  disabled,
}: {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur: () => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <TextField
      id={id}
      label={ON_BEHALF_OF_LABEL}
      value={value}
      onValueChange={onValueChange}
      onBlur={onBlur}
      error={error}
      helperText="Optional. Leave empty to add the record for your own account."
      disabled={disabled}
      maxLength={36}
      autoComplete="off"
      placeholder="e.g. 3f1c2b9a-…"
    />
  );
}
