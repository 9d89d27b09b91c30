import { Button, Callout, Card, Classes, H2, H4, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ChangePasswordDialog } from '../../accounts/ChangePasswordDialog.tsx';
import { MemberFields } from '../../accounts/MemberFields.tsx';
import { MfaSection } from '../../accounts/MfaSection.tsx';
import { memberSaveErrors } from '../../accounts/member-errors.ts';
import type { Errors, MemberValues } from '../../accounts/validation.ts';
import { useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { idempotencyKeys } from '../../api/idempotency.ts';
import { invalidateAccountData } from '../../api/invalidate.ts';
import { useSignedInUser } from '../../auth/auth-context.ts';
import { funderPath, memberPath, PATHS } from '../../routing/paths.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

const EMPTY: MemberValues = { first_name: '', last_name: '', email: '' };

/**
 * Add and edit a member (accounts §2): /funders/{funder_id}/members/new|{id} for platform
 * administrators, /account/members/new|{id} for account administrators.
 */
export function MemberPage({ scope, mode }: { scope: 'funder' | 'account'; mode: 'add' | 'edit' }) {
  const user = useSignedInUser();
  const params = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const funderId = scope === 'funder' ? (params.funderId ?? '') : null;
  const accountId = funderId ?? user.account_resource_id;
  const memberId = mode === 'edit' ? (params.id ?? '') : null;
  const membersTab = funderId ? funderPath(funderId, 'members') : `${PATHS.account}?tab=members`;
  const [serverErrors, setServerErrors] = useState<Errors<keyof MemberValues>>({});
  const [passwordOpen, setPasswordOpen] = useState(false);
  const keyFor = useRef(idempotencyKeys()).current;
  useDocumentTitle(mode === 'add' ? 'Add Member' : 'Member');

  const member = useApiQuery(
    routes.getUser,
    { params: { id: memberId ?? '' } },
    {
      enabled: memberId !== null,
      select: (answer) => answer.data,
      meta: { errorToast: true, quietStatuses: [400, 404] },
    },
  );
  const funder = useApiQuery(
    routes.getAccount,
    { params: { id: accountId } },
    { select: (answer) => answer.data, enabled: scope === 'funder' },
  );

  const onError = (error: Parameters<typeof memberSaveErrors>[0]) => {
    const fields = memberSaveErrors(error);
    if (fields) setServerErrors(fields);
    else if (error.status !== 401) showError(error.message);
  };
  const create = useApiMutation(routes.createUser, {
    onSuccess: (answer) => {
      showSuccess('Member has been added.');
      void invalidateAccountData(queryClient);
      navigate(memberPath({ funderId, id: answer.data.resource_id }), { replace: true });
    },
    onError,
  });
  const update = useApiMutation(routes.updateUser, {
    onSuccess: () => {
      showSuccess('Member has been updated.');
      void invalidateAccountData(queryClient);
    },
    onError,
  });

  const accountName = scope === 'funder' ? funder.data?.name : user.account_name;
  const header = (
    <header className="mrn-page-header mrn-header-row">
      <div>
        <H2>
          {mode === 'add'
            ? 'Add Member'
            : member.data
              ? `${member.data.first_name} ${member.data.last_name}`
              : 'Member'}
        </H2>
        <p className={Classes.TEXT_MUTED}>
          {accountName ?? '\u00a0'}
          {member.data?.deleted_at && (
            <Tag minimal intent={Intent.DANGER} className="mrn-inline-tag">
              Archived
            </Tag>
          )}
        </p>
      </div>
      <Button
        icon="arrow-left"
        variant="minimal"
        text="Account Members"
        onClick={() => navigate(membersTab)}
      />
    </header>
  );

  if (mode === 'add')
    return (
      <div className="mrn-page mrn-narrow-page">
        {header}
        <Card elevation={1}>
          <H4>Member</H4>
          <p className={Classes.TEXT_MUTED}>
            The new member receives an invitation e-mail with a link to choose their password.
          </p>
          <MemberFields
            idPrefix="add-member"
            initial={EMPTY}
            submitText="Add Member"
            saving={create.isPending}
            serverErrors={serverErrors}
            autoFocus
            onSubmit={(values) => {
              setServerErrors({});
              const body = { user: values };
              create.mutate({
                params: { id: accountId },
                body,
                headers: { 'Idempotency-Key': keyFor(body) },
              });
            }}
          />
        </Card>
      </div>
    );

  if (member.isPending) return <PageSpinner label="Loading member" />;
  if (member.isError)
    return member.error.status === 404 || member.error.status === 400 ? (
      <NonIdealState
        icon="search"
        title="Member not found"
        action={<Button icon="arrow-left" text="Account Members" onClick={() => navigate(membersTab)} />}
      />
    ) : (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {member.error.message}
      </Callout>
    );
  const data = member.data;
  const self = data.resource_id === user.resource_id;

  return (
    <div className="mrn-page mrn-narrow-page">
      {header}
      <Card elevation={1}>
        <H4>Member</H4>
        <MemberFields
          key={data.resource_id}
          idPrefix="member"
          initial={{ first_name: data.first_name, last_name: data.last_name, email: data.email }}
          submitText="Save Member"
          saving={update.isPending}
          serverErrors={serverErrors}
          onSubmit={(values) => {
            setServerErrors({});
            update.mutate({ params: { id: data.resource_id }, body: { user: values } });
          }}
          extraActions={<Button icon="lock" text="Change Password" onClick={() => setPasswordOpen(true)} />}
        />
      </Card>
      <MfaSection member={data} self={self} />
      <ChangePasswordDialog
        isOpen={passwordOpen}
        onClose={() => setPasswordOpen(false)}
        userId={data.resource_id}
        mode={self ? 'profile' : 'admin'}
        name={`${data.first_name} ${data.last_name}`}
      />
    </div>
  );
}
