import { Button, CompoundTag, Intent, NonIdealState, Tag, Tooltip } from '@blueprintjs/core';
import { brokerKey, type NoteView, SUBMISSION_SOURCE_LABELS } from '@mrn/contracts';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { brokerPath } from '../routing/paths.ts';
import { AddedBy } from './AddedBy.tsx';
import { categoryIntent } from './category-intent.ts';
import { formatDate } from './format.ts';

export const PRO_ONLY_SOURCE = 'Available to PRO members only';

export interface NoteActions {
  onEdit: (note: NoteView) => void;
  /** Platform administrators: archive the note. */
  onArchive: (note: NoteView) => void;
  /** Members of the authoring funder: the deletion request dialog. */
  onRequestDeletion: (note: NoteView) => void;
}

interface NotesListProps {
  notes: NoteView[];
  /** PRO accounts and platform admins see each note's submission source (core spec §6). */
  showSubmissionSource: boolean;
  /** The note row to mark and scroll to (the `highlight` query parameter). */
  highlightId?: string | null;
  /** Without actions the list is read-only (deleted merchants). */
  actions?: NoteActions;
  emptyTitle?: string;
}

export function NotesList({ notes, showSubmissionSource, highlightId, actions, emptyTitle }: NotesListProps) {
  const listRef = useRef<HTMLOListElement>(null);
  const scrolledTo = useRef<string | null>(null);
  const highlightShown = highlightId ? notes.some((n) => n.id === highlightId) : false;

  useEffect(() => {
    if (!highlightId || !highlightShown || scrolledTo.current === highlightId) return;
    const row = listRef.current?.querySelector<HTMLElement>(`[data-note-id="${CSS.escape(highlightId)}"]`);
    if (!row) return;
    scrolledTo.current = highlightId;
    row.scrollIntoView({ block: 'center', behavior: 'smooth' });
    row.focus({ preventScroll: true });
  }, [highlightId, highlightShown]);

  if (notes.length === 0)
    return (
      <NonIdealState icon="annotation" title={emptyTitle ?? 'No notes yet'} className="mrn-empty-small" />
    );

  return (
    <ol className="mrn-notes" ref={listRef} aria-label="Notes">
      {notes.map((note) => {
        const highlighted = note.id === highlightId;
        return (
          <li
            key={note.id}
            data-note-id={note.id}
            className={highlighted ? 'mrn-note mrn-note-highlight' : 'mrn-note'}
            tabIndex={highlighted ? -1 : undefined}
            aria-current={highlighted ? 'true' : undefined}
          >
            <div className="mrn-note-head">
              <div className="mrn-note-meta">
                <Tag intent={categoryIntent(note.category)} minimal={note.category === 'Other'}>
                  {note.category}
                </Tag>
                <span className="mrn-note-date">{formatDate(note.created_at)}</span>
                <span className="mrn-note-adder">
                  <AddedBy funder={note.added_by} user={note.added_by_user} />
                </span>
                {note.deletion_requested && (
                  <Tag intent={Intent.WARNING} minimal icon="issue">
                    Deletion requested
                  </Tag>
                )}
              </div>
              {actions && <NoteRowActions note={note} actions={actions} />}
            </div>
            <p className="mrn-note-text">{note.note}</p>
            <SubmissionSourceChip note={note} visible={showSubmissionSource} />
          </li>
        );
      })}
    </ol>
  );
}

function NoteRowActions({ note, actions }: { note: NoteView; actions: NoteActions }) {
  const deleteAction = note.can_archive
    ? { label: 'Archive note', run: () => actions.onArchive(note) }
    : note.can_request_deletion
      ? { label: 'Request deletion of this note', run: () => actions.onRequestDeletion(note) }
      : null;
  if (!note.can_edit && !deleteAction) return null;
  return (
    <div className="mrn-note-actions">
      {note.can_edit && (
        <Tooltip content="Edit note" placement="top">
          <Button variant="minimal" icon="edit" aria-label="Edit note" onClick={() => actions.onEdit(note)} />
        </Tooltip>
      )}
      {deleteAction && (
        <Tooltip content={deleteAction.label} placement="top">
          <Button
            variant="minimal"
            icon="trash"
            intent={Intent.DANGER}
            aria-label={deleteAction.label}
            onClick={deleteAction.run}
          />
        </Tooltip>
      )}
    </div>
  );
}

function SubmissionSourceChip({ note, visible }: { note: NoteView; visible: boolean }) {
  if (!visible)
    return (
      <CompoundTag leftContent="Submission Source" minimal className="mrn-source-chip">
        {PRO_ONLY_SOURCE}
      </CompoundTag>
    );
  if (!note.submission_source) return null;
  const label = SUBMISSION_SOURCE_LABELS[note.submission_source];
  const key = note.submission_source === 'broker' && note.broker_name ? brokerKey(note.broker_name) : '';
  return (
    <CompoundTag leftContent="Submission Source" minimal intent={Intent.PRIMARY} className="mrn-source-chip">
      {key ? (
        <>
          {label}: {/* The broker's record across the network (issue 24): PRO, as the source itself is. */}
          <Link to={brokerPath(key)} title={`${note.broker_name}'s record across the network`}>
            {note.broker_name}
          </Link>
        </>
      ) : (
        label
      )}
    </CompoundTag>
  );
}
