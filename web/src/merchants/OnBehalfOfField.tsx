import { FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useState } from 'react';
import { useApiQuery } from '../api/hooks.ts';

export const ON_BEHALF_OF_LABEL = 'Add on Behalf of';

/**
 * Platform administrators may add records on behalf of a funder (core spec §2, sent as
 * proxied_creator): find the funder by name, then pick it. Empty means "for my own account".
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
  const [search, setSearch] = useState('');
  const funders = useApiQuery(routes.listAccounts, {
    query: { page: 1, per_page: 25, search: search.trim() || undefined, membership_filter: 'active' },
  });
  const options = funders.data?.data ?? [];
  return (
    <FormGroup
      label={ON_BEHALF_OF_LABEL}
      labelFor={id}
      helperText={error ?? 'Optional. Leave it on your own account to add the record for yourself.'}
      intent={error ? Intent.DANGER : Intent.NONE}
    >
      <div className="mrn-on-behalf">
        <InputGroup
          aria-label="Find a funder by name"
          leftIcon="search"
          placeholder="Find a funder by name"
          value={search}
          onValueChange={setSearch}
          disabled={disabled}
        />
        <HTMLSelect
          id={id}
          fill
          value={value}
          onChange={(event) => onValueChange(event.currentTarget.value)}
          onBlur={onBlur}
          disabled={disabled || funders.isLoading}
        >
          <option value="">My own account</option>
          {/* Keep a chosen funder selectable even when the search no longer lists it. */}
          {value && !options.some((o) => o.resource_id === value) && (
            <option value={value}>Selected funder</option>
          )}
          {options.map((o) => (
            <option key={o.resource_id} value={o.resource_id}>
              {o.name} ({o.plan_level})
            </option>
          ))}
        </HTMLSelect>
      </div>
    </FormGroup>
  );
}
