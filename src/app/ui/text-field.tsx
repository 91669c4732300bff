/**
 * The form kit's text input (part 1 §5): a labelled input bound to react-hook-form whose error
 * shows only when the field is touched and (dirty or the submit failed). `required` fields show
 * 'Required *' (part 1 §5): the label ends in ' *' ('Nickname *') and the empty input reads
 * 'Required *'; the schema still decides (no browser validation bubble). `counterMax` counts the
 * characters against a limit as TextAreaField does.
 */
import { useId, useState, type InputHTMLAttributes } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FORM_LABEL, requiredLabel } from '../../domain/labels';
import { showsFieldError } from '../../domain/validation/field-state';
import { FieldCounter } from './text-area-field';

export interface TextFieldProps<T extends FieldValues> extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  /** Show/hide toggle for passwords (part 1 §2 sign-in). */
  revealable?: boolean;
  /** part 1 §5: shows 'Required *' (label with ' *', placeholder 'Required *' unless one is given). */
  required?: boolean;
  /** The input's id (its error's is `${id}-error`); a generated one when left out. */
  id?: string;
  /** A limit to count against as the user types (part 1 §5, TextAreaField's counter); the schema still decides. */
  counterMax?: number;
}

export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  revealable,
  required,
  type = 'text',
  placeholder,
  id: givenId,
  counterMax,
  ...input
}: TextFieldProps<T>) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const errorId = `${id}-error`;
  const countId = `${id}-count`;
  const [revealed, setRevealed] = useState(false);
  const { field, fieldState, formState } = useController({ control, name });
  const submitFailed = formState.isSubmitted && !formState.isSubmitSuccessful;
  const error = fieldState.error?.message;
  const shown =
    Boolean(error) && showsFieldError({ touched: fieldState.isTouched || submitFailed, dirty: fieldState.isDirty, submitFailed });
  return (
    <div className="field">
      <label htmlFor={id}>{required ? requiredLabel(label) : label}</label>
      <div className="field-input">
        <input
          {...input}
          id={id}
          placeholder={placeholder ?? (required ? FORM_LABEL.required : undefined)}
          aria-required={required || undefined}
          type={revealable && revealed ? 'text' : type}
          name={field.name}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          aria-invalid={shown || undefined}
          aria-describedby={[counterMax === undefined ? '' : countId, shown ? errorId : ''].filter(Boolean).join(' ') || undefined}
        />
        {revealable && (
          <button
            type="button"
            className="field-reveal"
            aria-pressed={revealed}
            aria-label={revealed ? 'Hide password' : 'Show password'}
            onClick={() => setRevealed((value) => !value)}
          >
            {revealed ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      {counterMax !== undefined && <FieldCounter id={countId} value={(field.value as string | undefined) ?? ''} max={counterMax} />}
      {shown && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
