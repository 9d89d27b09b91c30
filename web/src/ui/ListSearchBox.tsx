import { Button, InputGroup } from '@blueprintjs/core';
import { type FormEvent, useState } from 'react';

/** The search box of an admin list: Enter or the button applies the term, the cross clears it. */
export function ListSearchBox({
  value,
  onSearch,
  placeholder,
}: {
  value: string;
  onSearch: (term: string) => void;
  placeholder: string;
}) {
  const [term, setTerm] = useState(value);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // What the box holds as it is submitted, not the last render's state: a term typed and sent at once
    // (a fast typist, a loaded machine) is never searched as the one before it.
    onSearch(event.currentTarget.querySelector('input')?.value ?? term);
  };
  return (
    <search className="mrn-list-search">
      <form onSubmit={submit}>
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={placeholder}
          aria-label={placeholder}
          value={term}
          onValueChange={(next) => {
            setTerm(next);
            // Clearing the box (the search field's own cross) shows the whole list again.
            if (next === '' && value !== '') onSearch('');
          }}
          rightElement={<Button type="submit" variant="minimal" icon="arrow-right" aria-label="Search" />}
        />
      </form>
    </search>
  );
}
