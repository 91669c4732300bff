/**
 * The signed-in user's profile (part 2 §2 accounts "account" tab and accounts-new "profile"; §3
 * User "Profile adds ... phone and address fields"; §5 address): names, e-mail (shown, not edited
 * here), phone and the address, saved through PUT /profile; the shell's profile is read again after.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useSubmit } from '../../app/section/use-submit';
import { useServices } from '../../app/services';
import { TextField } from '../../app/ui/text-field';
import { addressFormValues, toAddressPayload } from '../../domain/address';
import { ACCOUNTS_TEXT } from '../../domain/labels';
import type { Profile } from '../../domain/profile';
import { profileFormSchema } from '../../domain/validation/accounts';
import { AddressFields } from './address-fields';
import { useAccountCalls } from './calls';
import { FormFooter } from './accounts-panel';

type FormInput = z.input<typeof profileFormSchema>;
type FormOutput = z.output<typeof profileFormSchema>;

function initialValues(profile: Profile): FormInput {
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    phone: profile.phone ?? '',
    ...addressFormValues(profile),
  };
}

export function ProfileForm({ profile }: { profile: Profile }) {
  const calls = useAccountCalls();
  const { session } = useServices();
  const { control, handleSubmit, formState, setValue, reset } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: initialValues(profile),
    mode: 'onTouched',
  });
  const write = useSubmit<Profile>({
    context: 'profileSave',
    onSuccess: async (saved) => {
      reset(initialValues(saved));
      await session.loadProfile();
    },
  });
  const submit = handleSubmit((form) =>
    write.submit(() =>
      calls.saveProfile({ firstname: form.firstName, lastname: form.lastName, phone: form.phone ?? '', ...toAddressPayload(form) }),
    ),
  );
  return (
    <form className="form accounts-form" noValidate aria-label={ACCOUNTS_TEXT.profileTitle} onSubmit={(event) => void submit(event)}>
      <h2 className="accounts-heading">{ACCOUNTS_TEXT.profileTitle}</h2>
      <div className="accounts-grid">
        <TextField control={control} name="firstName" label={ACCOUNTS_TEXT.firstName} required autoComplete="given-name" />
        <TextField control={control} name="lastName" label={ACCOUNTS_TEXT.lastName} required autoComplete="family-name" />
        <div className="field">
          <span className="field-label-static">{ACCOUNTS_TEXT.email}</span>
          <p className="accounts-static">{profile.email}</p>
        </div>
        <TextField control={control} name="phone" label={ACCOUNTS_TEXT.phone} type="tel" autoComplete="tel" />
        <AddressFields control={control} setValue={setValue} />
      </div>
      <FormFooter write={write} dirty={formState.isDirty} savedText={ACCOUNTS_TEXT.saved} />
    </form>
  );
}
