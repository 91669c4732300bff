import { Link } from 'react-router-dom';
import type { SignInErrorDisplay, UserError } from '../../domain/errors';

/** A failure under a welcome form: the text, its second line, and the sign-in display extras (part 1 §8). */
export function ErrorBox({ error }: { error: SignInErrorDisplay | UserError }) {
  const display = error as SignInErrorDisplay;
  return (
    <div className="form-alert form-alert-error" role="alert">
      <p>{display.text}</p>
      {display.detail && <p>{display.detail}</p>}
      {display.prompt && (
        <p>
          {display.prompt.before}
          <Link to="/welcome/forgot">{display.prompt.link}</Link>
          {display.prompt.after}
        </p>
      )}
      {display.contact && (
        <p>
          {display.contact.text} <a href={`mailto:${display.contact.email}`}>{display.contact.email}</a>
        </p>
      )}
    </div>
  );
}

export function SuccessBox({ text }: { text: string }) {
  return (
    <p className="form-alert form-alert-success" role="status">
      {text}
    </p>
  );
}
