/**
 * /welcome/reset/{email}/{resetToken} (part 1 §2): new password and confirmation with the live
 * rule list and 'Password expires after 90 days'; after success, sign-in after 2 s.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { POST_RESET_REDIRECT_MS } from '../../domain/constants';
import type { UserError } from '../../domain/errors';
import { PASSWORD_EXPIRY_NOTE, SIGN_IN_TEXT, WELCOME_TEXT } from '../../domain/labels';
import { resetPasswordSchema, type ResetPasswordForm } from '../../domain/validation/auth';
import { userErrorOf } from '../api-client';
import { useServices } from '../services';
import { PasswordRuleList } from '../ui/password-rule-list';
import { TextField } from '../ui/text-field';
import { ErrorBox, SuccessBox } from './error-box';
import { WelcomeCard } from './welcome-layout';

export function ResetPage() {
  const { auth } = useServices();
  const navigate = useNavigate();
  const { email = '', resetToken = '' } = useParams();
  const [phase, setPhase] = useState<'idle' | 'pending' | 'done'>('idle');
  const [failure, setFailure] = useState<UserError | null>(null);
  const { control, handleSubmit } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', passwordConfirmation: '' },
    mode: 'onTouched',
  });
  const password = useWatch({ control, name: 'password' });

  useEffect(() => {
    if (phase !== 'done') return undefined;
    const timer = setTimeout(() => navigate('/welcome/signin', { replace: true }), POST_RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [phase, navigate]);

  const submit = handleSubmit(async (form) => {
    setFailure(null);
    setPhase('pending');
    try {
      await auth.resetPassword(resetToken, form.password);
      setPhase('done');
    } catch (error) {
      setFailure(userErrorOf(error, 'reset'));
      setPhase('idle');
    }
  });

  return (
    <WelcomeCard title={WELCOME_TEXT.resetTitle}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="welcome-email">{email}</p>
        <TextField
          control={control}
          name="password"
          label={WELCOME_TEXT.newPassword}
          type="password"
          autoComplete="new-password"
          revealable
        />
        <PasswordRuleList password={password ?? ''} />
        <TextField
          control={control}
          name="passwordConfirmation"
          label={WELCOME_TEXT.confirmPassword}
          type="password"
          autoComplete="new-password"
        />
        <p className="welcome-hint">{PASSWORD_EXPIRY_NOTE}</p>
        {failure && <ErrorBox error={failure} />}
        {phase === 'done' && <SuccessBox text={SIGN_IN_TEXT.success} />}
        <button className="button button-primary" type="submit" disabled={phase !== 'idle'}>
          {phase === 'pending' ? SIGN_IN_TEXT.pending : WELCOME_TEXT.saveNewPassword}
        </button>
        <Link className="welcome-link" to="/welcome/signin">
          {WELCOME_TEXT.backToSignIn}
        </Link>
      </form>
    </WelcomeCard>
  );
}
