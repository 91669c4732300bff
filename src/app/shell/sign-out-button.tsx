/** part 1 §2 Sign Out, in the profile card and in the mobile dropdown: ends the session and goes to sign-in. */
import { useNavigate } from 'react-router-dom';
import { SHELL_TEXT } from '../../domain/labels';
import { useServices } from '../services';

export function SignOutButton() {
  const { session } = useServices();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="button button-secondary"
      onClick={() => {
        session.signOut();
        navigate('/welcome/signin', { replace: true });
      }}
    >
      {SHELL_TEXT.signOut}
    </button>
  );
}
