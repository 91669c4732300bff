/**
 * Add or edit a user (part 2 §2 "Add, edit and delete user"; §5 User: first and last name
 * required, e-mail 'Required' and 'Must be a valid email', a role; §7 POST /users, PUT
 * /users/{id}; §8 'Add user' and 'Update user' rows). The roles are GET /roles's, in their order
 * (only those the caller may assign). The legacy user tab shows it in a dialog, accounts-new as a page.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import { SelectField } from '../../app/ui/select-field';
import { TextField } from '../../app/ui/text-field';
import { ACCOUNTS_TEXT } from '../../domain/labels';
import { changesNamesOnly, toCreateUserPayload, toPatchUserPayload, toUpdateUserPayload, type User } from '../../domain/user';
import { userFormSchema } from '../../domain/validation/accounts';
import { FormFooter } from './accounts-panel';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

/** The select gives the role id as text: read as a number before the domain's rule. */
const formSchema = userFormSchema.extend({
  roleId: z.preprocess(
    (value) => (value === '' || value === null || value === undefined ? undefined : Number(value)),
    userFormSchema.shape.roleId,
  ),
});
type FormInput = { firstName: string; lastName: string; email: string; roleId: string };

export interface UserFormProps {
  organizationId: string;
  /** null: a new user. */
  user: User | null;
  onDone(): void;
  onCancel(): void;
}

export function UserForm({ organizationId, user, onDone, onCancel }: UserFormProps) {
  const calls = useAccountCalls();
  const roles = useApiQuery({ key: ACCOUNT_QUERIES.roles(organizationId), load: () => calls.roles() });
  const options = useMemo(() => (roles.data ?? []).map((role) => ({ value: String(role.id), label: role.label })), [roles.data]);
  const { control, handleSubmit, formState } = useForm<FormInput>({
    // The schema reads the role id as a number; the values stay the form's (converted on submit).
    resolver: zodResolver(formSchema) as unknown as Resolver<FormInput>,
    defaultValues: {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      roleId: user?.roleId === null || user?.roleId === undefined ? '' : String(user.roleId),
    },
    mode: 'onTouched',
  });
  // The copy the form was opened on: a save from it is refused once someone saved the user since (412).
  const [openedVersion] = useState(() => user?.version ?? null);
  const write = useSubmit<void>({
    context: user ? 'updateUser' : 'addUser',
    invalidates: [ACCOUNT_QUERIES.users(organizationId)],
    onSuccess: onDone,
  });
  const submit = handleSubmit((values) => {
    const form = { ...values, roleId: Number(values.roleId) };
    return write.submit(() =>
      user
        ? changesNamesOnly(user, form)
          ? calls.renameUser(user.id, toPatchUserPayload(form), openedVersion)
          : calls.updateUser(toUpdateUserPayload(user.id, form), openedVersion)
        : calls.createUser({ ...toCreateUserPayload(form), organization_id: organizationId }),
    );
  });
  const title = user ? ACCOUNTS_TEXT.editUser : ACCOUNTS_TEXT.addUser;
  return (
    <form className="form accounts-form" noValidate aria-label={title} onSubmit={(event) => void submit(event)}>
      <TextField control={control} name="firstName" label={ACCOUNTS_TEXT.firstName} required autoComplete="off" />
      <TextField control={control} name="lastName" label={ACCOUNTS_TEXT.lastName} required autoComplete="off" />
      <TextField control={control} name="email" label={ACCOUNTS_TEXT.email} type="email" required autoComplete="off" />
      <SelectField control={control} name="roleId" label={ACCOUNTS_TEXT.role} required options={options} />
      {!user && <p className="field-note">{ACCOUNTS_TEXT.newUserMailNote}</p>}
      <FormFooter write={write} dirty={formState.isDirty} onCancel={onCancel} />
    </form>
  );
}
