import { passwordRules } from '../../domain/validation/auth';

/** part 1 §5, part 2 §5: the live list of password rules under a new-password field, each marked met or not. */
export function PasswordRuleList({ password }: { password: string }) {
  return (
    <ul className="password-rules" aria-label="Password requirements">
      {passwordRules(password).map((rule) => (
        <li key={rule.key} className={rule.met ? 'rule-met' : 'rule-unmet'} data-met={rule.met}>
          <span aria-hidden="true">{rule.met ? '✓' : '•'}</span> {rule.label}
          <span className="visually-hidden">{rule.met ? ' (met)' : ' (not met)'}</span>
        </li>
      ))}
    </ul>
  );
}
