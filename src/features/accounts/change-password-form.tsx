/**
 * Change password for the signed-in user (part 2 §5 "Reset password (applies to account
 * administration as well)"): the current password, the new one with the live rule list, and its
 * confirmation ('Should match password'); the server refuses a wrong current password and the
 * last 10 (PUT /password). This session stays signed in.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useSubmit } from '../../app/section/use-submit';
import { PasswordRuleList } from '../../app/ui/password-rule-list';
import { TextField } from '../../app/ui/text-field';
import { ACCOUNTS_TEXT, PASSWORD_EXPIRY_NOTE } from '../../domain/labels';
import { changePasswordSchema, type ChangePasswordForm as Form } from '../../domain/validation/accounts';
import { useAccountCalls } from './calls';
import { FormFooter } from './accounts-panel';

const EMPTY: Form = { currentPassword: '', password: '', passwordConfirmation: '' };

export function ChangePasswordForm() {
  const calls = useAccountCalls();
  const { control, handleSubmit, formState, reset } = useForm<Form>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const password = useWatch({ control, name: 'password' });
  const write = useSubmit<void>({ context: 'changePassword', onSuccess: () => reset(EMPTY) });
  const submit = handleSubmit((form) =>
    write.submit(() =>
      calls.changePassword({
        current_password: form.currentPassword,
        password: form.password,
        password_confirmation: form.passwordConfirmation,
      }),
    ),
  );
  return (
    <form className="form accounts-form" noValidate aria-label={ACCOUNTS_TEXT.changePassword} onSubmit={(event) => void submit(event)}>
      <h2 className="accounts-heading">{ACCOUNTS_TEXT.changePassword}</h2>
      <TextField
        control={control}
        name="currentPassword"
        label={ACCOUNTS_TEXT.currentPassword}
        type="password"
        autoComplete="current-password"
        required
        revealable
      />
      <TextField
        control={control}
        name="password"
        label={ACCOUNTS_TEXT.newPassword}
        type="password"
        autoComplete="new-password"
        required
        revealable
      />
      <PasswordRuleList password={password ?? ''} />
      <TextField
        control={control}
        name="passwordConfirmation"
        label={ACCOUNTS_TEXT.confirmPassword}
        type="password"
        autoComplete="new-password"
        required
      />
      <p className="field-note">{PASSWORD_EXPIRY_NOTE}</p>
      <FormFooter
        write={write}
        dirty={formState.isDirty}
        saveLabel={ACCOUNTS_TEXT.changePassword}
        savedText={ACCOUNTS_TEXT.passwordChanged}
      />
    </form>
  );
}
