import { Button, InputGroup, type Size } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { searchPath } from '../routing/paths.ts';

interface MerchantSearchFormProps {
  placeholder: string;
  size?: Size;
  className?: string;
  /** Without the arrow button (Enter searches), for narrow places. */
  compact?: boolean;
  onSearch?: () => void;
}

/** Merchant search by full EIN or legal name; Enter or the arrow button searches. */
export function MerchantSearchForm({
  placeholder,
  size,
  className,
  compact,
  onSearch,
}: MerchantSearchFormProps) {
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const trimmed = term.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    navigate(searchPath(trimmed));
    onSearch?.();
  };

  return (
    <search className={className}>
      <form onSubmit={submit}>
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={placeholder}
          aria-label={placeholder}
          value={term}
          onValueChange={setTerm}
          size={size}
          rightElement={
            compact ? undefined : (
              <Button
                type="submit"
                variant="minimal"
                icon="arrow-right"
                aria-label="Search"
                disabled={!trimmed}
              />
            )
          }
        />
      </form>
    </search>
  );
}
