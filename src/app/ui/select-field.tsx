/**
 * The form kit's select (part 1 §5): a labelled choice bound to react-hook-form whose error shows
 * like TextField's (touched and (dirty or submit failed)). "Select lists over 20 options are
 * virtualized": up to VIRTUALIZE_SELECT_OVER options it is a native <select>; above, a searchable
 * combobox whose listbox draws only the visible options with react-window's List.
 */
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { List, type ListImperativeAPI, type RowComponentProps } from 'react-window';
import { requiredLabel } from '../../domain/labels';
import { showsFieldError, virtualizesSelect } from '../../domain/validation/field-state';
import './select-field.css';

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface SelectFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  options: readonly SelectOption[];
  /** Shown for the empty value ('' = none chosen). */
  placeholder?: string;
  /** part 1 §5 "Required fields show 'Required *'": the label gets ' *' (a label already ending in '*' is kept). */
  required?: boolean;
  disabled?: boolean;
  /** Called after the user picks a value (e.g. reset a dependent field). */
  onValueChange?: (value: string) => void;
  /** The control's id (its error's is `${id}-error`); a generated one when left out. */
  id?: string;
}

/** Height of one option of the virtualized listbox, px. */
export const SELECT_OPTION_HEIGHT = 36;
/** Options visible at once in the virtualized listbox. */
const VISIBLE_OPTIONS = 7;

export function SelectField<T extends FieldValues>({
  control,
  name,
  label,
  options,
  placeholder = 'Select...',
  required,
  disabled,
  onValueChange,
  id: givenId,
}: SelectFieldProps<T>) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const errorId = `${id}-error`;
  const { field, fieldState, formState } = useController({ control, name });
  const submitFailed = formState.isSubmitted && !formState.isSubmitSuccessful;
  const error = fieldState.error?.message;
  const shown =
    Boolean(error) && showsFieldError({ touched: fieldState.isTouched || submitFailed, dirty: fieldState.isDirty, submitFailed });
  const value = field.value === null || field.value === undefined ? '' : String(field.value);
  const choose = (next: string) => {
    field.onChange(next);
    onValueChange?.(next);
  };
  const text = required ? requiredLabel(label) : label;
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      {virtualizesSelect(options.length) ? (
        <VirtualSelect
          id={id}
          name={field.name}
          value={value}
          options={options}
          placeholder={placeholder}
          disabled={disabled}
          invalid={shown}
          describedBy={shown ? errorId : undefined}
          onChoose={choose}
          onBlur={field.onBlur}
        />
      ) : (
        <select
          id={id}
          className="select-native"
          name={field.name}
          value={value}
          disabled={disabled}
          ref={field.ref}
          onChange={(event) => choose(event.target.value)}
          onBlur={field.onBlur}
          aria-invalid={shown || undefined}
          aria-describedby={shown ? errorId : undefined}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
      {shown && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface VirtualSelectProps {
  id: string;
  name: string;
  value: string;
  options: readonly SelectOption[];
  placeholder: string;
  disabled?: boolean;
  invalid: boolean;
  describedBy?: string;
  onChoose: (value: string) => void;
  onBlur: () => void;
}

interface OptionRowProps {
  options: readonly SelectOption[];
  listId: string;
  active: number;
  value: string;
  onPick: (index: number) => void;
}

function OptionRow({ index, style, options, listId, active, value, onPick }: RowComponentProps<OptionRowProps>) {
  const option = options[index];
  if (!option) return null;
  return (
    <div
      id={`${listId}-${index}`}
      role="option"
      aria-selected={option.value === value}
      className={index === active ? 'select-option select-option-active' : 'select-option'}
      style={style}
      // mousedown, not click: keeps focus in the input so blur does not close the list first.
      onMouseDown={(event) => {
        event.preventDefault();
        onPick(index);
      }}
    >
      {option.label}
    </div>
  );
}

/** The searchable combobox over a react-window List (only the visible options are in the DOM). */
function VirtualSelect({ id, name, value, options, placeholder, disabled, invalid, describedBy, onChoose, onBlur }: VirtualSelectProps) {
  const listId = `${id}-listbox`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listRef = useRef<ListImperativeAPI>(null);
  const selected = options.find((option) => option.value === value) ?? null;
  const filtered = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return needle ? options.filter((option) => option.label.toLowerCase().includes(needle)) : options;
  }, [options, query]);

  const show = () => {
    setOpen(true);
    const at = Math.max(
      0,
      filtered.findIndex((option) => option.value === value),
    );
    setActive(at);
  };
  const close = () => {
    setOpen(false);
    setQuery('');
  };
  const pick = (index: number) => {
    const option = filtered[index];
    if (!option) return;
    onChoose(option.value);
    close();
  };
  const move = (to: number) => {
    if (filtered.length === 0) return;
    const next = Math.min(filtered.length - 1, Math.max(0, to));
    setActive(next);
    listRef.current?.scrollToRow({ index: next, align: 'auto' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) show();
        else move(active + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) show();
        else move(active - 1);
        break;
      case 'Home':
        if (open) {
          event.preventDefault();
          move(0);
        }
        break;
      case 'End':
        if (open) {
          event.preventDefault();
          move(filtered.length - 1);
        }
        break;
      case 'Enter':
        if (open) {
          event.preventDefault();
          pick(active);
        }
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        }
        break;
      default:
        break;
    }
  };

  const height = Math.min(VISIBLE_OPTIONS, Math.max(1, filtered.length)) * SELECT_OPTION_HEIGHT;
  return (
    <div className="select-virtual">
      <input
        id={id}
        name={name}
        role="combobox"
        className="select-combobox"
        autoComplete="off"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && filtered.length > 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        disabled={disabled}
        placeholder={selected ? selected.label : placeholder}
        value={open ? query : (selected?.label ?? '')}
        onClick={() => {
          if (!open) show();
        }}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          close();
          onBlur();
        }}
      />
      {open && (
        <div className="select-listbox">
          {filtered.length === 0 ? (
            <div id={listId} role="listbox" aria-label={placeholder} className="select-empty">
              No matches
            </div>
          ) : (
            <List
              id={listId}
              role="listbox"
              aria-label={placeholder}
              listRef={listRef}
              rowComponent={OptionRow}
              rowCount={filtered.length}
              rowHeight={SELECT_OPTION_HEIGHT}
              rowProps={{ options: filtered, listId, active, value, onPick: pick }}
              defaultHeight={height}
              style={{ height }}
              overscanCount={3}
            />
          )}
        </div>
      )}
    </div>
  );
}
