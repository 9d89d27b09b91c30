import { Button, HTMLSelect, Intent } from '@blueprintjs/core';
import { type DisputeDetailView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation, useApiQuery } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { invalidateDisputeData } from './queries.ts';

/**
 * Who has the dispute: "Assign to me", or any platform administrator from the staff account; and
 * "Start review" for a new dispute someone looks at before taking it.
 */
export function DisputeAssignment({ dispute }: { dispute: DisputeDetailView }) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const staff = useApiQuery(
    routes.listAccountUsers,
    { params: { id: user.account_resource_id } },
    { select: (a) => a.data.members.filter((m) => m.is_dm_admin) },
  );
  const onError = (error: { status: number; message: string }) => {
    if (error.status !== 401) showError(error.message);
  };
  const assign = useApiMutation(routes.assignDispute, {
    onSuccess: (_answer, request) => {
      const name = staff.data?.find((m) => m.id === request.body.assignee_id);
      showSuccess(
        request.body.assignee_id === user.resource_id
          ? 'The dispute is assigned to you.'
          : `The dispute is assigned to ${name ? `${name.first_name} ${name.last_name}` : 'your colleague'}.`,
      );
      void invalidateDisputeData(queryClient);
    },
    onError,
  });
  const startReview = useApiMutation(routes.startDisputeReview, {
    onSuccess: () => {
      showSuccess('Review started.');
      void invalidateDisputeData(queryClient);
    },
    onError,
  });
  const resolved = dispute.status === 'resolved';
  const mine = dispute.assigned_to?.id === user.resource_id;
  const busy = assign.isPending || startReview.isPending;

  return (
    <div className="mrn-dispute-actions">
      <label htmlFor="dispute-assignee" className="mrn-dispute-assignee-label">
        Assigned to
      </label>
      <HTMLSelect
        id="dispute-assignee"
        value={dispute.assigned_to?.id ?? ''}
        disabled={resolved || busy || !staff.data}
        onChange={(event) => {
          if (event.target.value)
            assign.mutate({ params: { id: dispute.id }, body: { assignee_id: event.target.value } });
        }}
      >
        {/* A dispute is reassigned, never left without anyone once taken. */}
        <option value="" disabled={dispute.assigned_to !== null}>
          {staff.isPending ? 'Loading staff…' : 'Unassigned'}
        </option>
        {/* The current assignee stays listed even if they are no longer on the staff list. */}
        {dispute.assigned_to && !staff.data?.some((m) => m.id === dispute.assigned_to?.id) && (
          <option value={dispute.assigned_to.id}>{dispute.assigned_to.name}</option>
        )}
        {staff.data?.map((m) => (
          <option key={m.id} value={m.id}>
            {m.first_name} {m.last_name}
            {m.id === user.resource_id ? ' (me)' : ''}
          </option>
        ))}
      </HTMLSelect>
      {!resolved && !mine && (
        <Button
          icon="person"
          text="Assign to me"
          intent={Intent.PRIMARY}
          loading={assign.isPending}
          disabled={busy}
          onClick={() =>
            assign.mutate({ params: { id: dispute.id }, body: { assignee_id: user.resource_id } })
          }
        />
      )}
      {dispute.status === 'new' && (
        <Button
          icon="eye-open"
          text="Start review"
          loading={startReview.isPending}
          disabled={busy}
          onClick={() => startReview.mutate({ params: { id: dispute.id } })}
        />
      )}
    </div>
  );
}
