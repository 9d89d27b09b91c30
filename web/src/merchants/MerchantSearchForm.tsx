import { Button, InputGroup, type Size, Spinner, SpinnerSize } from '@blueprintjs/core';
import { type FormEvent, useCallback, useState } from 'react';
import { useMerchantSearch } from './use-merchant-search.tsx';

interface MerchantSearchFormProps {
  placeholder: string;
  size?: Size;
  className?: string;
  /** Without the arrow button (Enter searches), for narrow places. */
  compact?: boolean;
  /** The term shown at first (the /search page shows its own), kept after searching. */
  initialTerm?: string;
  /** Called once a search has navigated somewhere (closes the phone drawer). */
  onSearch?: () => void;
  /** The input's id, for a skip link to reach it. */
  inputId?: string;
}

/** Merchant search by full EIN or legal name; Enter or the arrow button searches (core spec §4). */
export function MerchantSearchForm({
  placeholder,
  size,
  className,
  compact,
  initialTerm = '',
  onSearch,
  inputId,
}: MerchantSearchFormProps) {
  const [term, setTerm] = useState(initialTerm);
  // Once a search has led somewhere the box is ready for the next one.
  const afterNavigate = useCallback(() => {
    setTerm(initialTerm);
    onSearch?.();
  }, [onSearch, initialTerm]);
  const { search, searching, dialog } = useMerchantSearch(afterNavigate);
  const trimmed = term.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || searching) return;
    await search(trimmed);
  };

  const spinner = <Spinner size={SpinnerSize.SMALL} aria-label="Searching" className="mrn-input-spinner" />;

  return (
    <search className={className}>
      <form onSubmit={submit}>
        <InputGroup
          type="search"
          id={inputId}
          leftIcon="search"
          placeholder={placeholder}
          aria-label={placeholder}
          value={term}
          onValueChange={setTerm}
          size={size}
          aria-busy={searching}
          rightElement={
            compact ? (
              searching ? (
                spinner
              ) : undefined
            ) : (
              <Button
                type="submit"
                variant="minimal"
                icon="arrow-right"
                aria-label="Search"
                disabled={!trimmed}
                loading={searching}
              />
            )
          }
        />
      </form>
      {dialog}
    </search>
  );
}
