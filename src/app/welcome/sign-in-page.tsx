/** /welcome/signin (part 1 §2): e-mail and password, show/hide, the forgot link and the notice. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { signInErrorDisplay, type SignInErrorDisplay } from '../../domain/errors';
import { SIGN_IN_TEXT, WELCOME_TEXT } from '../../domain/labels';
import { signInSchema, type SignInForm } from '../../domain/validation/auth';
import { userErrorOf } from '../api-client';
import { useServices } from '../services';
import { TextField } from '../ui/text-field';
import { ErrorBox, SuccessBox } from './error-box';
import { WelcomeCard } from './welcome-layout';

/** The sign-in failure as the user reads it. */
export function signInFailure(error: unknown): SignInErrorDisplay {
  return signInErrorDisplay(userErrorOf(error, 'signIn'));
}

export function SignInPage() {
  const { auth, session } = useServices();
  const [phase, setPhase] = useState<'idle' | 'pending' | 'success'>('idle');
  const [failure, setFailure] = useState<SignInErrorDisplay | null>(null);
  const { control, handleSubmit } = useForm<SignInForm>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFailure(null);
    setPhase('pending');
    try {
      const tokens = await auth.signIn(form.email.trim(), form.password);
      setPhase('success');
      session.signIn(tokens);
    } catch (error) {
      setFailure(signInFailure(error));
      setPhase('idle');
    }
  });

  return (
    <WelcomeCard title={WELCOME_TEXT.signInTitle}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
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
        <button className="button button-primary" type="submit" disabled={phase !== 'idle'}>
          {phase === 'pending' ? SIGN_IN_TEXT.pending : WELCOME_TEXT.signInButton}
        </button>
        <Link className="welcome-link" to="/welcome/forgot">
          {SIGN_IN_TEXT.forgotPasswordLink}
        </Link>
      </form>
      <p className="welcome-notice">{WELCOME_TEXT.notice}</p>
    </WelcomeCard>
  );
}
