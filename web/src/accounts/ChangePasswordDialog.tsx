import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import type { FormEvent } from 'react';
import type { ApiError } from '../api/api-error.ts';
import { useApiMutation } from '../api/hooks.ts';
import { storeToken } from '../api/token-store.ts';
import { serverFieldErrors } from '../merchants/server-fields.ts';
import { TextField } from '../ui/fields.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useForm } from '../ui/use-form.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';
import { type ChangePasswordValues, isValid, PASSWORD_LABELS, validateChangePassword } from './validation.ts';

export const PASSWORD_UPDATED = 'Password has been updated.';

const EMPTY: ChangePasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '' };

interface ChangePasswordDialogProps {
  isOpen: boolean;
  onClose: () => void;
  userId: string;
  /** profile: the own password, with the old one; admin: a member's, without it (accounts §7). */
  mode: 'profile' | 'admin';
  /** Whose password, for the admin title. */
  name?: string;
}

/** Change Password (accounts §2, §5): the form starts empty each time the dialog opens. */
export function ChangePasswordDialog({ isOpen, onClose, ...rest }: ChangePasswordDialogProps) {
  const returnFocus = useReturnFocus(isOpen);
  return (
    <Dialog
      {...returnFocus}
      isOpen={isOpen}
      onClose={onClose}
      title={rest.mode === 'admin' && rest.name ? `Change Password for ${rest.name}` : 'Change Password'}
      icon="lock"
    >
      {isOpen && <ChangePasswordForm {...rest} onClose={onClose} />}
    </Dialog>
  );
}

function ChangePasswordForm({ userId, mode, onClose }: Omit<ChangePasswordDialogProps, 'isOpen' | 'name'>) {
  const form = useForm<ChangePasswordValues>(EMPTY);
  const requireOld = mode === 'profile';
  const errors = validateChangePassword(form.values, { requireOld });
  const errorOf = form.errorOf(errors);

  const onError = (error: ApiError) => {
    if (error.status === 401) return;
    if (error.status === 400) {
      const fields = serverFieldErrors(error.body, '', {
        old_password: PASSWORD_LABELS.oldPassword,
        new_password: PASSWORD_LABELS.newPassword,
        confirm_password: PASSWORD_LABELS.confirmPassword,
      });
      if (Object.keys(fields).length > 0) {
        // Shown under the fields, where the user fixes them.
        form.setServerErrors({
          oldPassword: fields.old_password,
          newPassword: fields.new_password,
          confirmPassword: fields.confirm_password,
        });
        return;
      }
    }
    showError(error.message);
  };
  const own = useApiMutation(routes.changePassword, {
    onSuccess: (answer) => {
      // Other sessions are revoked; this one continues with the new token.
      if (answer.data.jwt) storeToken(answer.data.jwt);
      showSuccess(PASSWORD_UPDATED);
      onClose();
    },
    onError,
  });
  const admin = useApiMutation(routes.adminChangePassword, {
    onSuccess: () => {
      showSuccess(PASSWORD_UPDATED);
      onClose();
    },
    onError,
  });
  const saving = own.isPending || admin.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.touchAll();
    if (!isValid(errors) || saving) return;
    const { oldPassword, newPassword, confirmPassword } = form.values;
    if (requireOld)
      own.mutate({
        params: { id: userId },
        body: {
          user_id: userId,
          old_password: oldPassword,
          new_password: newPassword,
          confirm_password: confirmPassword,
        },
      });
    else
      admin.mutate({
        params: { id: userId },
        body: { user_id: userId, new_password: newPassword, confirm_password: confirmPassword },
      });
  };
  const field = (name: keyof ChangePasswordValues) => ({
    id: `change-password-${name}`,
    label: PASSWORD_LABELS[name],
    type: 'password' as const,
    ...form.bindText(name, errorOf(name)),
    required: true,
    maxLength: 64,
    disabled: saving,
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <DialogBody>
        {requireOld && <TextField {...field('oldPassword')} autoComplete="current-password" autoFocus />}
        <TextField
          {...field('newPassword')}
          autoComplete="new-password"
          autoFocus={!requireOld}
          helperText="8 to 64 characters; none of the last five passwords."
        />
        <TextField {...field('confirmPassword')} autoComplete="new-password" />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={saving} />
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text="Update Password"
              disabled={!isValid(errors)}
              loading={saving}
            />
          </>
        }
      />
    </form>
  );
}
