// @vitest-environment jsdom
/** part 1 §5 form behaviour in the kit: errors only when touched and (dirty or submit failed), the text-area count, Save. */
import { zodResolver } from '@hookform/resolvers/zod';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SaveButton } from '../../../src/app/ui/save-button';
import { TextAreaField } from '../../../src/app/ui/text-area-field';
import { TextField } from '../../../src/app/ui/text-field';

afterEach(() => cleanup());

const schema = z.object({ name: z.string().trim().min(1, 'Required'), note: z.string().max(10, 'Too long') });

function Form() {
  const { control, handleSubmit, formState } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { name: '', note: '' },
    mode: 'onTouched',
  });
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(() => undefined)(e)}>
      <TextField control={control} name="name" label="Name" />
      <TextAreaField control={control} name="note" label="Note" maxLength={10} />
      <SaveButton dirty={formState.isDirty} submitting={formState.isSubmitting} />
      <button type="submit">Submit anyway</button>
    </form>
  );
}

describe('part1 §5 form kit', () => {
  it('no error before touch; after a failed submit the error shows', async () => {
    render(<Form />);
    expect(screen.queryByText('Required')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit anyway' }));
    expect(await screen.findByText('Required')).toBeTruthy();
  });

  it('touched but neither dirty nor submitted: no error', async () => {
    render(<Form />);
    fireEvent.blur(screen.getByLabelText('Name'));
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByText('Required')).toBeNull();
  });

  it('the text area counts characters and warns within 5 of the limit', () => {
    render(<Form />);
    const note = screen.getByLabelText('Note');
    fireEvent.change(note, { target: { value: 'abcd' } });
    expect(screen.getByText('4/10').dataset.warn).toBe('false');
    fireEvent.change(note, { target: { value: 'abcde' } });
    expect(screen.getByText('5/10').dataset.warn).toBe('true');
  });

  it('Save is disabled until the form changed', () => {
    render(<Form />);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    expect(save.disabled).toBe(false);
  });

  it('a text field given a limit counts as the user types, warning within 5 of it, and is described by its count', () => {
    function Counted() {
      const { control } = useForm({ defaultValues: { code: '' } });
      return <TextField control={control} name="code" label="Code" id="code" counterMax={10} />;
    }
    render(<Counted />);
    const code = screen.getByLabelText('Code');
    expect(screen.getByText('0/10').dataset.warn).toBe('false');
    fireEvent.change(code, { target: { value: 'abcde' } });
    expect(screen.getByText('5/10').dataset.warn).toBe('true');
    expect(code.getAttribute('aria-describedby')).toBe('code-count');
  });

  it.each([
    [{ dirty: false, submitting: false }, true],
    [{ dirty: true, submitting: false }, false],
    [{ dirty: true, submitting: true }, true],
    [{ dirty: false, submitting: false, savesUnchanged: true }, false],
    [{ dirty: false, submitting: true, savesUnchanged: true }, true],
    [{ dirty: true, submitting: false, held: true }, true],
  ])('SaveButton %j: disabled %s', (props, disabled) => {
    render(<SaveButton {...props} />);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(disabled);
  });
});
