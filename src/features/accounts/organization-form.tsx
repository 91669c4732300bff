/**
 * The organization edit (part 2 §2 "Organization edit"; §3 Organization; §5 "Organization and
 * account address"; §7 PUT /organization/{id}; §8 'Organization update'): name, e-mail, the
 * address, the contact (name, phone, cell phone: the legacy fields of §7), the time zone (a searchable list of IANA zones), and the organization's relations in
 * the spec's groups (owned first with the subscribed organization, ' (ONLY)' without relations).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useRef } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ItemState } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import { SelectField } from '../../app/ui/select-field';
import { TextField } from '../../app/ui/text-field';
import { addressFormValues, toAddressPayload } from '../../domain/address';
import { ACCOUNTS_TEXT, TOOLTIP } from '../../domain/labels';
import { organizationRelationGroups, type Organization, type OrganizationRef } from '../../domain/organization';
import { timeZoneNames } from '../../domain/time-zone';
import { organizationFormSchema } from '../../domain/validation/accounts';
import { AddressFields } from './address-fields';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';
import { FormFooter } from './accounts-panel';

type FormInput = z.input<typeof organizationFormSchema>;
type FormOutput = z.output<typeof organizationFormSchema>;

export interface OrganizationEditProps {
  organizationId: string;
  /** The signed-in user's organization and the ones it manages (the profile's). */
  subscribedOrgId: string;
  managedOrgs: readonly OrganizationRef[];
  canEdit: boolean;
  onSaved?: () => void;
}

function initialValues(org: Organization): FormInput {
  return {
    name: org.name,
    email: org.email ?? '',
    contactName: org.contactName ?? '',
    phoneNumber: org.phoneNumber ?? '',
    cellPhoneNumber: org.cellPhoneNumber ?? '',
    ...addressFormValues(org),
    timezone: org.timezone ?? '',
  };
}

/** Loads the organization, then its form and relations. */
export function OrganizationEdit(props: OrganizationEditProps) {
  const calls = useAccountCalls();
  const org = useApiQuery({
    key: ACCOUNT_QUERIES.organization(props.organizationId),
    load: () => calls.organization(props.organizationId),
  });
  if (org.isPending) return <ItemState state="loading" texts={{ notFound: ACCOUNTS_TEXT.organizationNotFound }} />;
  if (org.isError)
    return <ItemState state="failed" failure={org.error.userError} texts={{ notFound: ACCOUNTS_TEXT.organizationNotFound }} />;
  return (
    <div className="accounts-columns">
      <OrganizationForm key={org.data.id} organization={org.data} {...props} />
      <OrganizationRelations organization={org.data} subscribedOrgId={props.subscribedOrgId} managedOrgs={props.managedOrgs} />
    </div>
  );
}

function OrganizationForm({ organization, canEdit, onSaved }: OrganizationEditProps & { organization: Organization }) {
  const calls = useAccountCalls();
  const zones = useMemo(() => timeZoneNames().map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') })), []);
  const { control, handleSubmit, formState, setValue, reset } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(organizationFormSchema),
    defaultValues: initialValues(organization),
    mode: 'onTouched',
  });
  // The copy the values come from (opened, then each save's answer): a save from it is refused once
  // someone else saved the organization since (412), even though a refetch brings their copy.
  const version = useRef(organization.version ?? null);
  const write = useSubmit<Organization>({
    context: 'organizationUpdate',
    invalidates: [ACCOUNT_QUERIES.organization(organization.id)],
    onSuccess: (saved) => {
      version.current = saved.version ?? null;
      reset(initialValues(saved));
      onSaved?.();
    },
  });
  const submit = handleSubmit((form) =>
    write.submit(() =>
      calls.updateOrganization(
        organization.id,
        {
          name: form.name,
          ...toAddressPayload(form),
          email: form.email ?? '',
          contact_name: form.contactName ?? '',
          phone_number: form.phoneNumber ?? '',
          cell_phone_number: form.cellPhoneNumber ?? '',
          timezone: form.timezone ?? '',
        },
        version.current,
      ),
    ),
  );
  return (
    <form className="form accounts-form" noValidate aria-label={ACCOUNTS_TEXT.organizationTitle} onSubmit={(event) => void submit(event)}>
      <h2 className="accounts-heading">{ACCOUNTS_TEXT.organizationTitle}</h2>
      <fieldset className="accounts-fieldset" disabled={!canEdit} title={canEdit ? undefined : TOOLTIP.notAuthorized}>
        <div className="accounts-grid">
          <TextField control={control} name="name" label={ACCOUNTS_TEXT.organizationName} required autoComplete="organization" />
          <TextField control={control} name="email" label={ACCOUNTS_TEXT.organizationEmail} type="email" autoComplete="email" />
          <TextField control={control} name="contactName" label={ACCOUNTS_TEXT.contactName} autoComplete="off" />
          <TextField control={control} name="phoneNumber" label={ACCOUNTS_TEXT.phoneNumber} type="tel" autoComplete="off" />
          <TextField control={control} name="cellPhoneNumber" label={ACCOUNTS_TEXT.cellPhoneNumber} type="tel" autoComplete="off" />
          <AddressFields control={control} setValue={setValue} />
          <SelectField control={control} name="timezone" label={ACCOUNTS_TEXT.timeZone} required options={zones} />
        </div>
      </fieldset>
      <FormFooter write={write} dirty={canEdit && formState.isDirty} savedText={ACCOUNTS_TEXT.saved} />
    </form>
  );
}

function OrganizationRelations({
  organization,
  subscribedOrgId,
  managedOrgs,
}: {
  organization: Organization;
  subscribedOrgId: string;
  managedOrgs: readonly OrganizationRef[];
}) {
  const groups = organizationRelationGroups({
    organization,
    subscribedOrgId,
    children: organization.childStructure.filter((child) => child.parentId === organization.id),
    managed: organization.id === subscribedOrgId ? managedOrgs : [],
    managers: organization.organizationManagers,
    accessors: organization.organizationAccessors,
  });
  return (
    <section className="accounts-relations" aria-labelledby="accounts-relations-title">
      <h2 id="accounts-relations-title" className="accounts-heading">
        {ACCOUNTS_TEXT.relations}
      </h2>
      {groups.map((group) => (
        <div key={group.kind} className="accounts-relation-group">
          <h3 id={`accounts-relations-${group.kind}`}>{ACCOUNTS_TEXT.relationGroups[group.kind]}</h3>
          <ul aria-labelledby={`accounts-relations-${group.kind}`}>
            {group.entries.map((entry) => (
              <li key={entry.id} className={entry.isSubscribedOrg ? 'accounts-subscribed' : undefined}>
                {entry.name}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
