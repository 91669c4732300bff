// @vitest-environment jsdom
/**
 * part 1 §5 "Select lists over 20 options are virtualized", "Required fields show 'Required *'",
 * errors only when touched and (dirty or submit failed): the form kit's SelectField.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SelectField, type SelectOption } from '../../../src/app/ui/select-field';

afterEach(() => cleanup());

const schema = z.object({ choice: z.string().min(1, 'Required') });

function options(count: number): SelectOption[] {
  return Array.from({ length: count }, (_, i) => ({ value: `v${i + 1}`, label: `Option ${i + 1}` }));
}

let submitted: string | null = null;

function Form({ list, required }: { list: SelectOption[]; required?: boolean }) {
  const { control, handleSubmit } = useForm({ resolver: zodResolver(schema), defaultValues: { choice: '' }, mode: 'onTouched' });
  return (
    <form noValidate onSubmit={(e) => void handleSubmit((values) => (submitted = values.choice))(e)}>
      <SelectField control={control} name="choice" label="Organization" options={list} required={required} />
      <button type="submit">Submit</button>
    </form>
  );
}

describe('part1 §5 SelectField', () => {
  it('up to 20 options it is a native select with every option', () => {
    render(<Form list={options(20)} />);
    const select = screen.getByRole('combobox', { name: 'Organization' }) as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect(select.options).toHaveLength(21); // the empty choice + 20
    fireEvent.change(select, { target: { value: 'v7' } });
    expect(select.value).toBe('v7');
  });

  it('over 20 options the list is virtualized: only the visible options are in the DOM', () => {
    render(<Form list={options(500)} />);
    const input = screen.getByRole('combobox', { name: 'Organization' });
    expect(input.tagName).toBe('INPUT');
    fireEvent.click(input);
    const listbox = screen.getByRole('listbox');
    const rendered = within(listbox).getAllByRole('option');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(30);
    expect(rendered[0]?.textContent).toBe('Option 1');
    expect(within(listbox).queryByText('Option 500')).toBeNull();
  });

  it('the virtualized list filters as you type and picks with the keyboard; the form gets the value', () => {
    submitted = null;
    render(<Form list={options(500)} />);
    const input = screen.getByRole('combobox', { name: 'Organization' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'Option 49' } });
    const listbox = screen.getByRole('listbox');
    const shown = within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent);
    // 11 matches (49, 490..499), in order; the rest of the 500 are filtered out.
    expect(shown.slice(0, 3)).toEqual(['Option 49', 'Option 490', 'Option 491']);
    expect(shown.every((text) => text?.startsWith('Option 49'))).toBe(true);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toMatch(/-1$/);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.value).toBe('Option 490');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => expect(submitted).toBe('v490'));
  });

  it('a mouse pick chooses the option; Escape closes without choosing', () => {
    render(<Form list={options(40)} />);
    const input = screen.getByRole('combobox', { name: 'Organization' }) as HTMLInputElement;
    fireEvent.click(input);
    fireEvent.mouseDown(within(screen.getByRole('listbox')).getByText('Option 3'));
    expect(input.value).toBe('Option 3');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getByRole('listbox')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.value).toBe('Option 3');
  });

  it("a required field's label ends with ' *'", () => {
    render(<Form list={options(3)} required />);
    expect(screen.getByRole('combobox', { name: 'Organization *' })).toBeTruthy();
  });

  it('the error shows after a failed submit, not before', async () => {
    render(<Form list={options(3)} />);
    expect(screen.queryByText('Required')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Organization' }).getAttribute('aria-invalid')).toBe('true');
  });
});
