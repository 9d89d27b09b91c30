import {
  Alert,
  Button,
  Callout,
  Card,
  H4,
  Intent,
  NonIdealState,
  Switch,
  Tag,
  Tooltip,
} from '@blueprintjs/core';
import { type AccountView, routes, type UserView } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ApiError } from '../api/api-error.ts';
import { useApiMutation, useApiQuery } from '../api/hooks.ts';
import { invalidateAccountData } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { memberPath } from '../routing/paths.ts';
import { DataTable } from '../ui/DataTable.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { SwitchCell } from '../ui/SwitchCell.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { ApiCredentialsDialog, type CredentialsTarget } from './ApiCredentialsDialog.tsx';

const ARCHIVED_COLUMNS = ['Name', 'Email', 'Restore'];

const fullName = (u: UserView) => `${u.first_name} ${u.last_name}`;

type Pending = { isPending: boolean; variables?: { params?: { id: string } } };
const busyOn = (mutation: Pending, id: string) => mutation.isPending && mutation.variables?.params?.id === id;

/**
 * Account Members (accounts §2, §6): Members and Archived Members with Admin?, API (only when the
 * account has API access), MFA Required (disabled when the account requires MFA; hidden in the own
 * view) and Delete; archived rows have Restore.
 */
export function MembersPanel({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const me = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [archiving, setArchiving] = useState<UserView | null>(null);
  const [credentials, setCredentials] = useState<CredentialsTarget | null>(null);
  const funderId = view === 'admin' ? account.resource_id : null;
  const members = useApiQuery(
    routes.listAccountUsers,
    { params: { id: account.resource_id } },
    { select: (answer) => answer.data, meta: { errorToast: true } },
  );

  const handlers = (success: string, after?: () => void) => ({
    onSuccess: () => {
      showSuccess(success);
      after?.();
      void invalidateAccountData(queryClient);
    },
    onError: (error: ApiError) => {
      if (error.status !== 401) showError(error.message);
    },
  });
  const toggleAdmin = useApiMutation(
    routes.toggleUserAdmin,
    handlers("Member's admin status has been updated."),
  );
  const toggleMfa = useApiMutation(
    routes.toggleUserMfaRequired,
    handlers("Member's MFA requirement has been updated."),
  );
  const archive = useApiMutation(
    routes.archiveUser,
    handlers('Member has been archived.', () => setArchiving(null)),
  );
  const restore = useApiMutation(routes.restoreUser, handlers('Member has been restored.'));
  const revokeApi = useApiMutation(routes.revokeUserApiAccess, handlers('API access has been revoked.'));
  const grantApi = useApiMutation(routes.grantUserApiAccess, {
    onSuccess: (answer, request) => {
      showSuccess('API access has been granted.');
      const member = members.data?.members.find((m) => m.resource_id === request.params.id);
      setCredentials({
        userId: request.params.id,
        name: member ? fullName(member) : 'member',
        issued: answer.data,
      });
      void invalidateAccountData(queryClient);
    },
    onError: (error) => {
      if (error.status !== 401) showError(error.message);
    },
  });

  const showApi = account.can_access_api;
  const showMfa = view === 'admin';
  const archived = account.archived_at !== null;
  const memberColumns = [
    'Name',
    'Email',
    'Admin?',
    ...(showApi ? ['API'] : []),
    ...(showMfa ? ['MFA Required'] : []),
    'Delete',
  ];

  if (members.isPending) return <PageSpinner label="Loading members" />;
  if (members.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {members.error.message}
      </Callout>
    );
  const { members: active, archived: former } = members.data;

  return (
    <div className="mrn-tab-panel">
      <Card className="mrn-card mrn-table-card" elevation={1}>
        <div className="mrn-card-title-row">
          <H4>Members</H4>
          <Button
            intent={Intent.PRIMARY}
            icon="plus"
            text="Add Member"
            disabled={archived}
            onClick={() => navigate(memberPath({ funderId, id: null }))}
          />
        </div>
        {!showApi && (
          <p className="bp6-text-muted mrn-card-note">
            {view === 'admin'
              ? 'API access is off for this funder; grant it on the Security tab to manage members’ API credentials.'
              : 'Your account does not have API access. A platform administrator can grant it.'}
          </p>
        )}
        {active.length === 0 ? (
          <NonIdealState icon="people" title="No members yet" className="mrn-empty-small" />
        ) : (
          <DataTable caption="Members" columns={memberColumns} className="mrn-table-middle">
            {active.map((m) => {
              const self = m.resource_id === me.resource_id;
              const name = fullName(m);
              return (
                <tr key={m.resource_id}>
                  <td className="mrn-cell-title" data-label="Name">
                    <Link to={memberPath({ funderId, id: m.resource_id })}>{name}</Link>
                    {self && (
                      <Tag minimal className="mrn-inline-tag">
                        You
                      </Tag>
                    )}
                  </td>
                  <td data-label="Email" className="mrn-break">
                    {m.email}
                  </td>
                  <SwitchCell
                    label="Admin?"
                    ariaLabel={`${name} is an account admin`}
                    checked={m.is_admin}
                    disabled={self || archived || busyOn(toggleAdmin, m.resource_id)}
                    onChange={() => toggleAdmin.mutate({ params: { id: m.resource_id } })}
                  />
                  {showApi && (
                    <td data-label="API">
                      <span className="mrn-cell-actions">
                        <Switch
                          className="mrn-cell-switch"
                          checked={m.api_granted}
                          disabled={
                            archived || busyOn(grantApi, m.resource_id) || busyOn(revokeApi, m.resource_id)
                          }
                          onChange={() =>
                            (m.api_granted ? revokeApi : grantApi).mutate({
                              params: { id: m.resource_id },
                            })
                          }
                          aria-label={`API access for ${name}`}
                        />
                        {m.api_granted && (
                          <Tooltip content="API Credentials" placement="top">
                            <Button
                              variant="minimal"
                              icon="key"
                              aria-label={`API credentials of ${name}`}
                              onClick={() => setCredentials({ userId: m.resource_id, name })}
                            />
                          </Tooltip>
                        )}
                      </span>
                    </td>
                  )}
                  {showMfa && (
                    <td data-label="MFA Required">
                      <Tooltip
                        content="The whole account requires MFA"
                        disabled={!account.mfa_required}
                        placement="top"
                      >
                        <Switch
                          className="mrn-cell-switch"
                          checked={m.mfa_required}
                          disabled={account.mfa_required || archived || busyOn(toggleMfa, m.resource_id)}
                          onChange={() => toggleMfa.mutate({ params: { id: m.resource_id } })}
                          aria-label={`MFA required for ${name}`}
                        />
                      </Tooltip>
                    </td>
                  )}
                  <td data-label="Delete">
                    <Tooltip
                      content={self ? "You can't archive yourself" : 'Archive member'}
                      placement="left"
                    >
                      <Button
                        variant="minimal"
                        intent={Intent.DANGER}
                        icon="trash"
                        aria-label={`Archive ${name}`}
                        disabled={self || archived}
                        loading={busyOn(archive, m.resource_id)}
                        onClick={() => setArchiving(m)}
                      />
                    </Tooltip>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </Card>

      <Card className="mrn-card mrn-table-card" elevation={1}>
        <H4>Archived Members</H4>
        {former.length === 0 ? (
          <p className="bp6-text-muted mrn-card-note">No archived members.</p>
        ) : (
          <DataTable caption="Archived Members" columns={ARCHIVED_COLUMNS} className="mrn-table-middle">
            {former.map((m) => (
              <tr key={m.resource_id}>
                <td className="mrn-cell-title" data-label="Name">
                  {fullName(m)}
                </td>
                <td data-label="Email" className="mrn-break">
                  {m.email}
                </td>
                <td data-label="Restore">
                  <Button
                    size="small"
                    icon="undo"
                    text="Restore"
                    disabled={archived}
                    loading={busyOn(restore, m.resource_id)}
                    onClick={() => restore.mutate({ params: { id: m.resource_id } })}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>

      <Alert
        isOpen={archiving !== null}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText="Archive Member"
        cancelButtonText="Cancel"
        canEscapeKeyCancel
        loading={archive.isPending}
        onCancel={() => setArchiving(null)}
        onConfirm={() => archiving && archive.mutate({ params: { id: archiving.resource_id } })}
      >
        <p>
          Archive <strong>{archiving ? fullName(archiving) : ''}</strong>? They are signed out and can no
          longer sign in. You can restore them from Archived Members.
        </p>
      </Alert>
      <ApiCredentialsDialog target={credentials} onClose={() => setCredentials(null)} />
    </div>
  );
}
