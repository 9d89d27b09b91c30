import { FormGroup, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import {
  DEFAULT_SATISFIED_QUICK_NOTES,
  NOTE_MAX,
  type NoteCategory,
  SUBMISSION_SOURCE_LABELS,
  SUBMISSION_SOURCES,
  type SubmissionSource,
} from '@mrn/contracts';
import { useRef, useState } from 'react';
import { SelectField, TextAreaField, TextField } from '../ui/fields.tsx';
import type { FormState } from '../ui/use-form.ts';
import {
  BROKER_NAME_HINT,
  BROKER_NAME_MAX,
  DEFAULT_SATISFIED,
  NOTE_LABELS,
  type NoteFormValues,
  type QuickNote,
  validateNote,
  withQuickNote,
  withSource,
} from './note-form.ts';

interface NoteFieldsFormProps {
  idPrefix: string;
  form: FormState<NoteFormValues>;
  categories: readonly NoteCategory[];
  disabled?: boolean;
  autoFocus?: boolean;
}

const quickNoteOf = (note: string): QuickNote | '' =>
  (DEFAULT_SATISFIED_QUICK_NOTES as readonly string[]).includes(note) ? (note as QuickNote) : '';

/** Category, note text, submission source and broker name (core spec §5). */
export function NoteFieldsForm({ idPrefix, form, categories, disabled, autoFocus }: NoteFieldsFormProps) {
  const { values } = form;
  const errorOf = form.errorOf(validateNote(values, categories));
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const [quick, setQuick] = useState<QuickNote | ''>(() => quickNoteOf(values.note));

  const chooseQuickNote = (option: QuickNote) => {
    setQuick(option);
    form.update(withQuickNote(values, option));
    if (option === 'Other') window.setTimeout(() => noteRef.current?.focus(), 0);
    else form.touch('note');
  };

  return (
    <div className="mrn-note-fields">
      <SelectField
        id={`${idPrefix}-category`}
        label={NOTE_LABELS.category}
        value={values.category}
        onValueChange={(value) => {
          form.setField('category', value as NoteCategory | '');
          form.touch('category');
        }}
        onBlur={() => form.touch('category')}
        error={errorOf('category')}
        required
        disabled={disabled}
        options={categories}
        placeholder="Select a category"
        autoFocus={autoFocus}
      />
      {values.category === DEFAULT_SATISFIED && (
        <FormGroup label="Quick note" helperText="Fills the note; you can still change its text.">
          <RadioGroup
            name={`${idPrefix}-quick-note`}
            selectedValue={quick}
            onChange={(event) => chooseQuickNote(event.currentTarget.value as QuickNote)}
            disabled={disabled}
            inline
          >
            {DEFAULT_SATISFIED_QUICK_NOTES.map((option) => (
              <Radio key={option} value={option} label={option} />
            ))}
          </RadioGroup>
        </FormGroup>
      )}
      <TextAreaField
        id={`${idPrefix}-note`}
        label={NOTE_LABELS.note}
        value={values.note}
        onValueChange={(value) => form.setField('note', value)}
        onBlur={() => form.touch('note')}
        error={errorOf('note')}
        required
        disabled={disabled}
        maxLength={NOTE_MAX}
        textAreaRef={noteRef}
      />
      <FormGroup
        label={NOTE_LABELS.submission_source}
        intent={errorOf('submission_source') ? Intent.DANGER : Intent.NONE}
        helperText={errorOf('submission_source')}
      >
        <RadioGroup
          name={`${idPrefix}-submission-source`}
          selectedValue={values.submission_source}
          onChange={(event) => form.update(withSource(values, event.currentTarget.value as SubmissionSource))}
          disabled={disabled}
          inline
        >
          {SUBMISSION_SOURCES.map((source) => (
            <Radio key={source} value={source} label={SUBMISSION_SOURCE_LABELS[source]} />
          ))}
        </RadioGroup>
      </FormGroup>
      {values.submission_source === 'broker' && (
        <TextField
          id={`${idPrefix}-broker-name`}
          label={NOTE_LABELS.broker_name}
          value={values.broker_name}
          onValueChange={(value) => form.setField('broker_name', value)}
          onBlur={() => form.touch('broker_name')}
          error={errorOf('broker_name')}
          helperText={BROKER_NAME_HINT}
          required
          disabled={disabled}
          maxLength={BROKER_NAME_MAX}
        />
      )}
    </div>
  );
}
