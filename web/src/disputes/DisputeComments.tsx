import { Button, Intent, NonIdealState } from '@blueprintjs/core';
import { DISPUTE_COMMENT_MAX, type DisputeDetailView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { formatDateTime } from '../merchants/format.ts';
import { TextAreaField } from '../ui/fields.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { fieldErrorOf, invalidateDisputeData } from './queries.ts';

/** The internal comment thread: staff only, never shown or sent to the business owner. */
export function DisputeComments({ dispute }: { dispute: DisputeDetailView }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const add = useApiMutation(routes.addDisputeComment, {
    onSuccess: () => {
      showSuccess('Comment added.');
      setText('');
      setTouched(false);
      void invalidateDisputeData(queryClient);
    },
    onError: (error) => {
      if (error.status !== 401 && error.status !== 400) showError(error.message);
    },
  });
  const trimmed = text.trim();
  const error =
    fieldErrorOf(add.error, 'comment.text', 'comment') ??
    (touched && !trimmed ? 'A comment is required' : undefined);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!trimmed || add.isPending) return;
    add.mutate({ params: { id: dispute.id }, body: { comment: { text: trimmed } } });
  };

  return (
    <div>
      {dispute.comments.length === 0 ? (
        <NonIdealState icon="comment" title="No comments yet" className="mrn-empty-small" />
      ) : (
        <ol className="mrn-dispute-comments" aria-label="Internal comments">
          {dispute.comments.map((c) => (
            <li key={c.id}>
              <div className="mrn-dispute-comment-meta mrn-secondary">
                <strong>{c.author.name}</strong> · {formatDateTime(c.created_at)}
              </div>
              <div className="mrn-preserve-lines">{c.text}</div>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit} aria-label="Add a comment">
        <TextAreaField
          id="dispute-comment"
          label="Internal comment"
          helperText="Seen by platform administrators only; never sent to the business owner."
          value={text}
          onValueChange={setText}
          error={error}
          maxLength={DISPUTE_COMMENT_MAX}
          rows={3}
        />
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          icon="comment"
          text="Add comment"
          loading={add.isPending}
        />
      </form>
    </div>
  );
}
