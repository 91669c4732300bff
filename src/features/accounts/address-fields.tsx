/**
 * The address of the account and organization forms (part 2 §5 "Organization and account
 * address"): line 1, line 2 (optional), city, country, the state field by country (US: a state,
 * CA: a province, else free text) and the postal code ('Zip Code' in the US). Changing the
 * country clears the state.
 */
import { useMemo } from 'react';
import { useWatch, type Control, type FieldValues, type Path, type PathValue, type UseFormSetValue } from 'react-hook-form';
import { SelectField } from '../../app/ui/select-field';
import { TextField } from '../../app/ui/text-field';
import type { AddressFields as AddressValues } from '../../domain/address';
import { ACCOUNTS_TEXT } from '../../domain/labels';
import { addressLabels } from '../../domain/postal-code';
import { countryOptions, regionsOf } from '../../domain/regions';

export function AddressFields<T extends FieldValues & AddressValues>({
  control,
  setValue,
}: {
  control: Control<T>;
  setValue: UseFormSetValue<T>;
}) {
  const name = (field: keyof AddressValues) => field as Path<T>;
  const country = useWatch({ control, name: name('countryCode') }) as string | undefined;
  const regions = regionsOf(country);
  const countries = useMemo(() => countryOptions(country).map((c) => ({ value: c.code, label: c.name })), [country]);
  const labels = addressLabels(country);
  // part 2 §2 labels by country: US State, CA Province, others Region (a free-text field).
  const stateLabel = labels.state;
  return (
    <>
      <TextField control={control} name={name('address1')} label={ACCOUNTS_TEXT.address1} required autoComplete="address-line1" />
      <TextField control={control} name={name('address2')} label={ACCOUNTS_TEXT.address2} autoComplete="address-line2" />
      <TextField control={control} name={name('city')} label={ACCOUNTS_TEXT.city} required autoComplete="address-level2" />
      <SelectField
        control={control}
        name={name('countryCode')}
        label={ACCOUNTS_TEXT.country}
        required
        options={countries}
        onValueChange={() => setValue(name('state'), '' as PathValue<T, Path<T>>, { shouldDirty: true })}
      />
      {regions ? (
        <SelectField
          control={control}
          name={name('state')}
          label={stateLabel}
          required
          options={regions.map((region) => ({ value: region.code, label: region.name }))}
        />
      ) : (
        <TextField control={control} name={name('state')} label={stateLabel} required autoComplete="address-level1" />
      )}
      <TextField control={control} name={name('postalCode')} label={labels.postalCode} required autoComplete="postal-code" />
    </>
  );
}
