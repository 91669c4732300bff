/**
 * The form kit's text area (part 1 §5): a character count that warns within 5 of the limit; errors
 * and 'Required *' as TextField.
 */
import { useId } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FORM_LABEL, requiredLabel } from '../../domain/labels';
import { showsFieldError, textAreaCounter } from '../../domain/validation/field-state';

/** part 1 §5: the count against the limit as the user types ('12/100'), warning within 5 of it (or over it). */
export function FieldCounter({ id, value, max }: { id: string; value: string; max: number }) {
  const counter = textAreaCounter(value, max);
  return (
    <p id={id} className={counter.warn ? 'field-count field-count-warn' : 'field-count'} data-warn={counter.warn}>
      {counter.count}/{max}
    </p>
  );
}

export interface TextAreaFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  maxLength: number;
  rows?: number;
  /** part 1 §5: shows 'Required *' (label with ' *', placeholder 'Required *' unless one is given). */
  required?: boolean;
  placeholder?: string;
}

export function TextAreaField<T extends FieldValues>({
  control,
  name,
  label,
  maxLength,
  rows = 3,
  required,
  placeholder,
}: TextAreaFieldProps<T>) {
  const id = useId();
  const { field, fieldState, formState } = useController({ control, name });
  const value = (field.value as string | undefined) ?? '';
  const submitFailed = formState.isSubmitted && !formState.isSubmitSuccessful;
  const error = fieldState.error?.message;
  const shown =
    Boolean(error) && showsFieldError({ touched: fieldState.isTouched || submitFailed, dirty: fieldState.isDirty, submitFailed });
  return (
    <div className="field">
      <label htmlFor={id}>{required ? requiredLabel(label) : label}</label>
      <textarea
        id={id}
        placeholder={placeholder ?? (required ? FORM_LABEL.required : undefined)}
        aria-required={required || undefined}
        className="field-textarea"
        rows={rows}
        name={field.name}
        value={value}
        onChange={field.onChange}
        onBlur={field.onBlur}
        ref={field.ref}
        aria-invalid={shown || undefined}
        aria-describedby={`${id}-count${shown ? ` ${id}-error` : ''}`}
      />
      <FieldCounter id={`${id}-count`} value={value} max={maxLength} />
      {shown && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
