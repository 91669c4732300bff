/** /welcome/forgot (part 1 §2): the e-mail field and the reset button. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { UserError } from '../../domain/errors';
import { ACCOUNT_RECOVERY_TEXT, SIGN_IN_TEXT, WELCOME_TEXT } from '../../domain/labels';
import { forgotPasswordSchema, type ForgotPasswordForm } from '../../domain/validation/auth';
import { userErrorOf } from '../api-client';
import { useServices } from '../services';
import { TextField } from '../ui/text-field';
import { ErrorBox, SuccessBox } from './error-box';
import { WelcomeCard } from './welcome-layout';

export function ForgotPage() {
  const { auth } = useServices();
  const [phase, setPhase] = useState<'idle' | 'pending' | 'sent'>('idle');
  const [failure, setFailure] = useState<UserError | null>(null);
  const { control, handleSubmit } = useForm<ForgotPasswordForm>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async ({ email }) => {
    setFailure(null);
    setPhase('pending');
    try {
      await auth.forgotPassword(email.trim());
      setPhase('sent');
    } catch (error) {
      setFailure(userErrorOf(error, 'forgot'));
      setPhase('idle');
    }
  });
  return (
    <WelcomeCard title={WELCOME_TEXT.forgotTitle}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{WELCOME_TEXT.forgotIntro}</p>
        <TextField control={control} name="email" label={WELCOME_TEXT.email} type="email" autoComplete="email" />
        {failure && <ErrorBox error={failure} />}
        {phase === 'sent' && <SuccessBox text={ACCOUNT_RECOVERY_TEXT.emailSentIfFound} />}
        <button className="button button-primary" type="submit" disabled={phase === 'pending'}>
          {phase === 'pending' ? SIGN_IN_TEXT.pending : WELCOME_TEXT.resetButton}
        </button>
        <Link className="welcome-link" to="/welcome/signin">
          {WELCOME_TEXT.backToSignIn}
        </Link>
      </form>
    </WelcomeCard>
  );
}
