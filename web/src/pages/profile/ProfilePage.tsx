import { Button, Callout, Card, Classes, H2, H4, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ChangePasswordDialog } from '../../accounts/ChangePasswordDialog.tsx';
import { MemberFields } from '../../accounts/MemberFields.tsx';
import { MfaSection } from '../../accounts/MfaSection.tsx';
import { memberSaveErrors } from '../../accounts/member-errors.ts';
import type { Errors, MemberValues } from '../../accounts/validation.ts';
import { call } from '../../api/client.ts';
import { useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { invalidateAccountData } from '../../api/invalidate.ts';
import { useAuth, useSignedInUser } from '../../auth/auth-context.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { showError, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

/** /profile: the own name and e-mail address, password and MFA (accounts §2). */
export function ProfilePage() {
  const user = useSignedInUser();
  const { updateUser } = useAuth();
  const queryClient = useQueryClient();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors<keyof MemberValues>>({});
  useDocumentTitle('Profile');

  const profile = useApiQuery(
    routes.getUser,
    { params: { id: user.resource_id } },
    { select: (answer) => answer.data, meta: { errorToast: true } },
  );
  const save = useApiMutation(routes.updateUser, {
    onSuccess: async () => {
      showSuccess('Profile updated');
      await invalidateAccountData(queryClient);
      // The top bar and dashboard greet the user by the new name.
      const fresh = await call(routes.dashboardUpdates, { body: { resource_id: user.resource_id } }).catch(
        () => null,
      );
      if (fresh) updateUser(fresh.data.user);
    },
    onError: (error) => {
      const fields = memberSaveErrors(error);
      if (fields) setServerErrors(fields);
      else if (error.status !== 401) showError(error.message);
    },
  });

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Profile</H2>
        <p className={Classes.TEXT_MUTED}>
          {user.account_name}
          {user.is_dm_admin ? ' · Platform administrator' : user.is_admin ? ' · Account administrator' : ''}
        </p>
      </header>
      {profile.isPending && <PageSpinner label="Loading your profile" />}
      {profile.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {profile.error.message}
        </Callout>
      )}
      {profile.data && (
        <>
          <Card elevation={1}>
            <H4>Your details</H4>
            <MemberFields
              key={profile.data.resource_id}
              idPrefix="profile"
              initial={{
                first_name: profile.data.first_name,
                last_name: profile.data.last_name,
                email: profile.data.email,
              }}
              submitText="Save Profile"
              saving={save.isPending}
              serverErrors={serverErrors}
              onSubmit={(values) => {
                setServerErrors({});
                save.mutate({
                  params: { id: user.resource_id },
                  body: { user: values },
                  // Accounts spec §8: the own profile's failure is "…update profile." ("update member" is
                  // the admin's edit of a member).
                  action: 'update profile',
                });
              }}
              extraActions={
                <Button icon="lock" text="Change Password" onClick={() => setPasswordOpen(true)} />
              }
            />
          </Card>
          <MfaSection member={profile.data} self />
        </>
      )}
      <ChangePasswordDialog
        isOpen={passwordOpen}
        onClose={() => setPasswordOpen(false)}
        userId={user.resource_id}
        mode="profile"
      />
    </div>
  );
}
