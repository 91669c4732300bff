/**
 * /welcome/unlock/{email}/{unlockToken} (part 1 §2; docs/decisions/spec.md "the unlock flow"): signing in with the
 * link's token unlocks the account; an expired link can be sent again ('You'll receive an email
 * if account was found').
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router-dom';
import type { SignInErrorDisplay, UserError } from '../../domain/errors';
import { ACCOUNT_RECOVERY_TEXT, SIGN_IN_TEXT, WELCOME_TEXT } from '../../domain/labels';
import { signInSchema, type SignInForm } from '../../domain/validation/auth';
import { userErrorOf } from '../api-client';
import { useServices } from '../services';
import { TextField } from '../ui/text-field';
import { ErrorBox, SuccessBox } from './error-box';
import { signInFailure } from './sign-in-page';
import { WelcomeCard } from './welcome-layout';

export function UnlockPage() {
  const { auth, session } = useServices();
  const { email = '', unlockToken = '' } = useParams();
  const [phase, setPhase] = useState<'idle' | 'pending' | 'success'>('idle');
  const [failure, setFailure] = useState<SignInErrorDisplay | UserError | null>(null);
  const [resend, setResend] = useState<'idle' | 'pending' | 'sent'>('idle');
  const { control, handleSubmit } = useForm<SignInForm>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email, password: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFailure(null);
    setPhase('pending');
    try {
      const tokens = await auth.signIn(form.email.trim(), form.password, unlockToken);
      setPhase('success');
      session.signIn(tokens);
    } catch (error) {
      setFailure(signInFailure(error));
      setPhase('idle');
    }
  });

  async function sendLink() {
    setFailure(null);
    setResend('pending');
    try {
      await auth.unlockAccount(email);
      setResend('sent');
    } catch (error) {
      setFailure(userErrorOf(error, 'unlock'));
      setResend('idle');
    }
  }

  return (
    <WelcomeCard title={WELCOME_TEXT.unlockTitle}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{WELCOME_TEXT.unlockIntro}</p>
        <TextField control={control} name="email" label={WELCOME_TEXT.email} type="email" autoComplete="username" />
        <TextField
          control={control}
          name="password"
          label={WELCOME_TEXT.password}
          type="password"
          autoComplete="current-password"
          revealable
        />
        {failure && <ErrorBox error={failure} />}
        {phase === 'success' && <SuccessBox text={SIGN_IN_TEXT.success} />}
        {resend === 'sent' && <SuccessBox text={ACCOUNT_RECOVERY_TEXT.emailSentIfFound} />}
        <button className="button button-primary" type="submit" disabled={phase !== 'idle'}>
          {phase === 'pending' ? SIGN_IN_TEXT.pending : WELCOME_TEXT.unlockButton}
        </button>
        <button className="button button-secondary" type="button" disabled={resend === 'pending'} onClick={() => void sendLink()}>
          {resend === 'pending' ? SIGN_IN_TEXT.pending : WELCOME_TEXT.sendUnlockLink}
        </button>
        <Link className="welcome-link" to="/welcome/signin">
          {WELCOME_TEXT.backToSignIn}
        </Link>
      </form>
    </WelcomeCard>
  );
}
