// @vitest-environment jsdom
/** part 1 §5 "Required fields show 'Required *'" in the form kit's text field and text area. */
import { cleanup, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { requiredLabel } from '../../../src/domain/labels';
import { TextAreaField } from '../../../src/app/ui/text-area-field';
import { TextField } from '../../../src/app/ui/text-field';

afterEach(() => cleanup());

function Form() {
  const { control } = useForm({ defaultValues: { nickname: '', plate: '', description: '', note: '', given: '' } });
  return (
    <form noValidate>
      <TextField control={control} name="nickname" label="Nickname" required />
      <TextField control={control} name="plate" label="License Number" />
      <TextField control={control} name="given" label="Address" required placeholder="Street and number" />
      <TextAreaField control={control} name="description" label="Description" maxLength={200} required />
      <TextAreaField control={control} name="note" label="Note" maxLength={200} />
    </form>
  );
}

describe("part1 §5 'Required *'", () => {
  it("a required text field reads 'Nickname *', says 'Required *' while empty and is marked required", () => {
    render(<Form />);
    const nickname = screen.getByLabelText('Nickname *');
    expect(nickname.getAttribute('placeholder')).toBe('Required *');
    expect(nickname.getAttribute('aria-required')).toBe('true');
    // No browser validation bubble: the schema's messages are the ones shown.
    expect(nickname.hasAttribute('required')).toBe(false);
  });

  it("a required text area reads 'Description *' and says 'Required *'", () => {
    render(<Form />);
    const description = screen.getByLabelText('Description *');
    expect(description.tagName).toBe('TEXTAREA');
    expect(description.getAttribute('placeholder')).toBe('Required *');
    expect(description.getAttribute('aria-required')).toBe('true');
  });

  it('optional fields have neither the star nor the hint; a given placeholder wins over the hint', () => {
    render(<Form />);
    const plate = screen.getByLabelText('License Number');
    expect(plate.hasAttribute('placeholder')).toBe(false);
    expect(plate.hasAttribute('aria-required')).toBe(false);
    expect(screen.getByLabelText('Note').hasAttribute('placeholder')).toBe(false);
    expect(screen.getByLabelText('Address *').getAttribute('placeholder')).toBe('Street and number');
  });

  it("a label that already ends in '*' gets no second star", () => {
    expect(requiredLabel('Nickname')).toBe('Nickname *');
    expect(requiredLabel('Nickname *')).toBe('Nickname *');
  });
});
