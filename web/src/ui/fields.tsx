import { FormGroup, HTMLSelect, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import type { HTMLInputTypeAttribute, ReactNode, Ref } from 'react';

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  helperText?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  maxLength?: number;
  className?: string;
}

/** A labelled field: the error (or else the helper text) below it, `(required)` after the label. */
function Group({
  id,
  label,
  error,
  helperText,
  required,
  className,
  children,
}: Pick<FieldProps, 'id' | 'label' | 'error' | 'helperText' | 'required' | 'className'> & {
  children: ReactNode;
}) {
  return (
    <FormGroup
      className={className}
      label={label}
      labelFor={id}
      labelInfo={required ? '(required)' : undefined}
      helperText={
        error || helperText ? (
          <span id={`${id}-help`}>{error ?? helperText}</span>
        ) : (
          // Every field keeps room for a message line: the form never jumps (and a click never lands on
          // another control) when an "is required" appears on blur, and rows of a grid stay evenly
          // spaced whichever of their fields are required.
          <span aria-hidden="true">&nbsp;</span>
        )
      }
      intent={error ? Intent.DANGER : Intent.NONE}
    >
      {children}
    </FormGroup>
  );
}

const describedBy = (id: string, error?: string, helperText?: ReactNode) =>
  error || helperText ? `${id}-help` : undefined;

export function TextField({
  type = 'text',
  inputMode,
  autoComplete,
  placeholder,
  rightElement,
  inputRef,
  autoFocus,
  pattern,
  ...props
}: FieldProps & {
  type?: HTMLInputTypeAttribute;
  inputMode?: 'text' | 'numeric' | 'tel';
  autoComplete?: string;
  placeholder?: string;
  rightElement?: React.JSX.Element;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
  pattern?: string;
}) {
  const { id, value, onValueChange, onBlur, error, helperText, required, disabled, maxLength } = props;
  return (
    <Group {...props}>
      <InputGroup
        id={id}
        name={id}
        type={type}
        value={value}
        onValueChange={onValueChange}
        onBlur={onBlur}
        intent={error ? Intent.DANGER : Intent.NONE}
        required={required}
        disabled={disabled}
        maxLength={maxLength}
        inputMode={inputMode}
        autoComplete={autoComplete}
        placeholder={placeholder}
        rightElement={rightElement}
        inputRef={inputRef}
        autoFocus={autoFocus}
        pattern={pattern}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, helperText)}
      />
    </Group>
  );
}

export function TextAreaField({
  rows = 4,
  textAreaRef,
  autoFocus,
  ...props
}: FieldProps & { rows?: number; textAreaRef?: Ref<HTMLTextAreaElement>; autoFocus?: boolean }) {
  const { id, value, onValueChange, onBlur, error, helperText, required, disabled, maxLength } = props;
  return (
    <Group {...props}>
      <TextArea
        id={id}
        name={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        onBlur={onBlur}
        intent={error ? Intent.DANGER : Intent.NONE}
        required={required}
        disabled={disabled}
        maxLength={maxLength}
        rows={rows}
        fill
        autoResize
        inputRef={textAreaRef}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, helperText)}
      />
    </Group>
  );
}

export function SelectField({
  options,
  placeholder,
  autoFocus,
  ...props
}: FieldProps & { options: readonly string[]; placeholder: string; autoFocus?: boolean }) {
  const { id, value, onValueChange, onBlur, error, helperText, required, disabled } = props;
  return (
    <Group {...props}>
      <HTMLSelect
        id={id}
        name={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        onBlur={onBlur}
        required={required}
        disabled={disabled}
        fill
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, helperText)}
        className={error ? 'mrn-select-invalid' : undefined}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </HTMLSelect>
    </Group>
  );
}
