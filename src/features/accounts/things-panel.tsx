/**
 * The thing tab (part 2 §2 accounts "thing"): the organization's assets with type, subtype,
 * device configuration and integrations (GET /organization/things, every page). An asset's type,
 * subtype and integrations (at most 2, providers not repeated: part 1 §5, part 2 §9) are edited
 * in the Live section's asset edit, which each row opens — one form for both places.
 *
 * Device configuration (part 2 §2, §3 Device config): §3 links a configuration to an organization
 * and a thing type, never to one asset, so an asset shows the file names of its organization's
 * configurations for its type, or '—'. The column shows to callers who may read the
 * configurations (thing:admin:manage or haas:manage, the server's rule).
 *
 * Bulk 'Set type': the rows' boxes and the header's select-all (every shown row) choose assets;
 * the type (and optionally a subtype of it) is saved through PUT /things/{id} (part 1 §7), one
 * asset after the other, after a confirmation naming the count; then 'n updated, m failed' with
 * each refusal's catalogue text (part 1 §8 assetSave). Without thing:update or thing:manage (part 1
 * §6) the button is disabled with 'Not authorized'; the server refuses the same call.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { userErrorOf } from '../../app/api-client';
import { ConfirmDialog } from '../../app/section/confirm-dialog';
import { itemHref } from '../../app/section/item-href';
import { useServices } from '../../app/services';
import { useApiQuery } from '../../app/use-api-query';
import { Modal } from '../../app/ui/modal';
import { SelectField } from '../../app/ui/select-field';
import type { ThingWire } from '../../domain/asset';
import { ACCOUNTS_TEXT, SECTION_TEXT, THINGS_TAB_TEXT } from '../../domain/labels';
import { canConfigureDevices, canEditAsset, type PermissionList } from '../../domain/permissions';
import { subtypesForType } from '../../domain/thing-type';
import { bulkThingTypeSchema, type BulkThingTypeForm } from '../../domain/validation/accounts';
import { AccountsPanel, AllowedButton } from './accounts-panel';
import { AccountsTable } from './accounts-table';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

const thingName = (thing: ThingWire) => thing.nickname || thing.haas_id;

/** The chosen type and subtype, with the type's name for the confirmation. */
interface TypeChoice {
  typeId: string;
  subtypeId: string | null;
  label: string;
}

/** Where a bulk run stands: assets done so far and each refusal's text. */
interface BulkRun {
  count: number;
  done: number;
  updated: number;
  failures: { name: string; text: string }[];
  finished: boolean;
}

export function ThingsPanel({ organizationId, permissions }: { organizationId: string; permissions: PermissionList }) {
  const calls = useAccountCalls();
  const { queries } = useServices();
  const showsConfigs = canConfigureDevices(permissions);
  const canSetType = canEditAsset(permissions);
  const things = useApiQuery({ key: ACCOUNT_QUERIES.things(organizationId), load: () => calls.things(organizationId) });
  const configs = useApiQuery({
    key: ACCOUNT_QUERIES.deviceConfigs(organizationId),
    load: () => calls.deviceConfigs(organizationId),
    enabled: showsConfigs,
  });
  /** File names of the organization's configurations by thing type. */
  const configsByType = useMemo(() => {
    const byType = new Map<string, string[]>();
    for (const config of configs.data ?? []) {
      if (config.thingTypeId === null) continue;
      byType.set(config.thingTypeId, [...(byType.get(config.thingTypeId) ?? []), config.fileName]);
    }
    return byType;
  }, [configs.data]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [step, setStep] = useState<'choose' | { confirm: TypeChoice } | null>(null);
  const [run, setRun] = useState<BulkRun | null>(null);

  const shown = things.data ?? [];
  // A row that left the list (another organization, a refresh) is no longer selected.
  const chosen = shown.filter((thing) => selected.has(thing.id));
  const allChosen = shown.length > 0 && chosen.length === shown.length;
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const apply = async ({ typeId, subtypeId }: TypeChoice) => {
    const targets = chosen;
    setStep(null);
    const progress: BulkRun = { count: targets.length, done: 0, updated: 0, failures: [], finished: false };
    setRun(progress);
    // One after the other (chosen): the server sees one write at a time and the progress counts in order.
    for (const thing of targets) {
      try {
        await calls.setThingType(thing, typeId, subtypeId);
        progress.updated += 1;
      } catch (error) {
        progress.failures.push({ name: thingName(thing), text: userErrorOf(error, 'assetSave').text });
      }
      progress.done += 1;
      setRun({ ...progress, failures: [...progress.failures] });
    }
    void queries.invalidateQueries({ queryKey: ACCOUNT_QUERIES.allThings });
    setSelected(new Set());
    setRun({ ...progress, failures: [...progress.failures], finished: true });
  };

  const columns = [
    ACCOUNTS_TEXT.name,
    THINGS_TAB_TEXT.type,
    THINGS_TAB_TEXT.subtype,
    ...(showsConfigs ? [THINGS_TAB_TEXT.deviceConfig] : []),
    THINGS_TAB_TEXT.integrations,
  ];
  return (
    <AccountsPanel
      id="things"
      title={ACCOUNTS_TEXT.assetsTitle}
      action={
        <AllowedButton
          allowed={canSetType}
          disabled={chosen.length === 0}
          className="button button-primary"
          onClick={() => setStep('choose')}
        >
          {THINGS_TAB_TEXT.setType}
        </AllowedButton>
      }
    >
      <AccountsTable
        answer={things}
        rows={(data) => data}
        columns={columns}
        lead={
          <input
            type="checkbox"
            aria-label={THINGS_TAB_TEXT.selectAll}
            checked={allChosen}
            disabled={shown.length === 0}
            onChange={() => setSelected(allChosen ? new Set() : new Set(shown.map((thing) => thing.id)))}
          />
        }
        empty={THINGS_TAB_TEXT.none}
        renderRow={(thing) => {
          const name = thingName(thing);
          const files = thing.thing_type_id ? configsByType.get(thing.thing_type_id) : undefined;
          return (
            <tr key={thing.id}>
              <td>
                <input
                  type="checkbox"
                  aria-label={THINGS_TAB_TEXT.select(name)}
                  checked={selected.has(thing.id)}
                  onChange={() => toggle(thing.id)}
                />
              </td>
              <th scope="row">{name}</th>
              <td>{thing.thing_type ?? ''}</td>
              <td>{thing.thing_subtype ?? ''}</td>
              {showsConfigs && <td>{files ? files.join(', ') : THINGS_TAB_TEXT.noDeviceConfig}</td>}
              <td>{thing.integrations.map((integration) => integration.name).join(', ')}</td>
              <td className="accounts-row-actions">
                <Link
                  className="button button-secondary"
                  to={itemHref('things', thing.id, { page: 'edit' })}
                  aria-label={`${SECTION_TEXT.edit} ${name}`}
                >
                  {SECTION_TEXT.edit}
                </Link>
              </td>
            </tr>
          );
        }}
      />
      {step === 'choose' && (
        <SetTypeDialog count={chosen.length} onChoose={(choice) => setStep({ confirm: choice })} onCancel={() => setStep(null)} />
      )}
      {step !== null && step !== 'choose' && (
        <ConfirmDialog
          title={THINGS_TAB_TEXT.confirmTitle(chosen.length, step.confirm.label)}
          body={THINGS_TAB_TEXT.confirmBody}
          confirmLabel={THINGS_TAB_TEXT.setType}
          pending={false}
          failure={null}
          onConfirm={() => void apply(step.confirm)}
          onCancel={() => setStep(null)}
        />
      )}
      {run && <BulkRunDialog run={run} onClose={() => setRun(null)} />}
    </AccountsPanel>
  );
}

interface SetTypeDialogProps {
  count: number;
  onChoose(choice: TypeChoice): void;
  onCancel(): void;
}

/** The type (required) and a subtype of it (optional) for the chosen assets. */
function SetTypeDialog({ count, onChoose, onCancel }: SetTypeDialogProps) {
  const calls = useAccountCalls();
  const types = useApiQuery({ key: ACCOUNT_QUERIES.thingTypes, load: () => calls.thingTypes() });
  const subtypes = useApiQuery({ key: ACCOUNT_QUERIES.thingSubtypes, load: () => calls.thingSubtypes() });
  const { control, handleSubmit, watch, setValue } = useForm<BulkThingTypeForm>({
    resolver: zodResolver(bulkThingTypeSchema),
    defaultValues: { thingType: '', thingSubtype: '' },
    mode: 'onTouched',
  });
  const typeId = watch('thingType');
  const subtypeOptions = subtypesForType(subtypes.data ?? [], typeId).map((s) => ({ value: s.id, label: s.displayName }));
  const title = THINGS_TAB_TEXT.setTypeTitle(count);
  const submit = handleSubmit((form) => {
    const type = (types.data ?? []).find((t) => t.id === form.thingType);
    const subtype = (subtypes.data ?? []).find((s) => s.id === form.thingSubtype);
    const label = [type?.displayName ?? form.thingType, subtype?.displayName].filter(Boolean).join(' / ');
    onChoose({ typeId: form.thingType, subtypeId: form.thingSubtype || null, label });
  });
  return (
    <Modal title={title} onClose={onCancel} actions={null}>
      <form className="form accounts-form" noValidate aria-label={title} onSubmit={(event) => void submit(event)}>
        <SelectField
          control={control}
          name="thingType"
          label={THINGS_TAB_TEXT.type}
          required
          options={(types.data ?? []).map((type) => ({ value: type.id, label: type.displayName }))}
          onValueChange={() => setValue('thingSubtype', '')}
        />
        <SelectField
          control={control}
          name="thingSubtype"
          label={THINGS_TAB_TEXT.subtype}
          placeholder={THINGS_TAB_TEXT.keepSubtype}
          options={subtypeOptions}
          disabled={subtypeOptions.length === 0}
        />
        <div className="accounts-actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {SECTION_TEXT.cancel}
          </button>
          <button type="submit" className="button button-primary">
            {THINGS_TAB_TEXT.next}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The run's progress, then 'n updated, m failed' with each failure's text. */
function BulkRunDialog({ run, onClose }: { run: BulkRun; onClose(): void }) {
  return (
    <Modal
      title={THINGS_TAB_TEXT.setType}
      onClose={run.finished ? onClose : undefined}
      actions={
        <button type="button" className="button button-secondary" disabled={!run.finished} onClick={onClose}>
          {THINGS_TAB_TEXT.close}
        </button>
      }
    >
      <p role="status">
        {run.finished ? THINGS_TAB_TEXT.summary(run.updated, run.failures.length) : THINGS_TAB_TEXT.progress(run.done, run.count)}
      </p>
      {run.failures.length > 0 && (
        <ul className="accounts-failures" role="alert">
          {run.failures.map((failure, index) => (
            <li key={index}>
              {failure.name}: {failure.text}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
