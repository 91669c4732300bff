/**
 * The export wizard (part 2 §2 "step 1 choose type; step 2 form; step 3 confirmation 'Export
 * In-Progress' with a 'Got It' button. Going back clears the form"; §4 defaults; §5 rules):
 * step 1 the type, step 2 the form with the defaults of exportDefaults (the previous day, title
 * 'Type Export date'), validated by the domain's exportFormSchema (the server runs the same),
 * each message under its field; step 3 the confirmation, whose 'Got It' returns to the list.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { profileOrganizations } from '../../app/shell/shell-model';
import { SubmitFailure } from '../../app/section/item-state';
import { useSubmit } from '../../app/section/use-submit';
import { useApiQuery } from '../../app/use-api-query';
import {
  CLOSURE_EXPORT_INCLUDES,
  EXPORT_TYPES,
  EXPORT_TYPE_LABELS,
  exportDefaults,
  toExportRequest,
  type ClosureExportInclude,
  type ExportForm,
  type ExportType,
} from '../../domain/export';
import { DATA_TEXT, EXPORT_TEXT, PAGE_TEXT, requiredLabel } from '../../domain/labels';
import { areaCrud } from '../../domain/permissions';
import type { OrganizationRef } from '../../domain/organization';
import type { Profile } from '../../domain/profile';
import { exportFormSchema } from '../../domain/validation/reports';
import { DATA_QUERIES, useDataCalls } from './calls';
import { ExportAssetPicker } from './asset-picker';
import { readDateInput, toMinuteInput } from '../../domain/time';
import { wizardZone } from './input-time';
import './data.css';

type Step = 'type' | 'form' | 'success';
type FieldErrors = Partial<Record<keyof ExportForm, string>>;

/** The organizations an export may be for: the dashboard's, the user's own, and those it manages or accesses. */
function organizationOptions(profile: Profile, currentId: string): OrganizationRef[] {
  const byId = new Map(profileOrganizations(profile).map((org) => [org.id, org]));
  if (!byId.has(currentId)) byId.set(currentId, { id: currentId, name: DATA_TEXT.organization });
  const current = byId.get(currentId)!;
  return [current, ...[...byId.values()].filter((org) => org.id !== currentId).sort((a, b) => a.name.localeCompare(b.name))];
}

function validate(form: ExportForm, now: number): FieldErrors {
  const result = exportFormSchema({ now }).safeParse(form);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0] as keyof ExportForm | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

export function ExportWizard() {
  const { profile, organizationId } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('type');
  const [form, setForm] = useState<ExportForm | null>(null);
  const back = () => {
    // part 2 §2 "Going back clears the form".
    setForm(null);
    setStep('type');
  };
  const choose = (exportType: ExportType) => {
    // part 2 §4 the previous day on the user's wall clock (the zone every shown time uses).
    setForm({ ...exportDefaults(Date.now(), exportType, wizardZone(false, profile.timezone)), organizationId });
    setStep('form');
  };

  // part 2 §6 exports: creating one needs export create or manage (the server answers 403 otherwise):
  // a user without it who opens the wizard's address is told so before filling anything in.
  if (!areaCrud(profile.permissions, 'export').canCreate) {
    return (
      <section className="data-page export-wizard" aria-labelledby="wizard-title">
        <h1 id="wizard-title">{DATA_TEXT.createNew}</h1>
        <p role="alert">{PAGE_TEXT.unauthorized}</p>
        <div className="wizard-actions">
          <button type="button" className="button button-secondary" onClick={() => void navigate('..', { relative: 'path' })}>
            {DATA_TEXT.back}
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="data-page export-wizard" aria-labelledby="wizard-title">
      {step === 'type' && (
        <>
          <h1 id="wizard-title">{DATA_TEXT.wizardStepType}</h1>
          <div className="export-types" role="group" aria-label={DATA_TEXT.wizardStepType}>
            {EXPORT_TYPES.map((type) => (
              <button key={type} type="button" className="button button-secondary export-type" onClick={() => choose(type)}>
                {EXPORT_TYPE_LABELS[type]}
              </button>
            ))}
          </div>
          <div className="wizard-actions">
            <button type="button" className="button button-secondary" onClick={() => void navigate('..', { relative: 'path' })}>
              {DATA_TEXT.back}
            </button>
          </div>
        </>
      )}
      {step === 'form' && form && (
        <ExportFormStep
          key={form.exportType}
          initial={form}
          userZone={profile.timezone}
          organizations={organizationOptions(profile, organizationId)}
          onBack={back}
          onDone={() => setStep('success')}
        />
      )}
      {step === 'success' && (
        <div className="wizard-success" role="status">
          <h1 id="wizard-title">{EXPORT_TEXT.inProgress}</h1>
          <p>{DATA_TEXT.inProgressBody}</p>
          <button type="button" className="button button-primary" onClick={() => void navigate('..?tab=in_progress', { relative: 'path' })}>
            {EXPORT_TEXT.gotIt}
          </button>
        </div>
      )}
    </section>
  );
}

function ExportFormStep({
  initial,
  userZone,
  organizations,
  onBack,
  onDone,
}: {
  initial: ExportForm;
  userZone: string | null;
  organizations: OrganizationRef[];
  onBack(): void;
  onDone(): void;
}) {
  const calls = useDataCalls();
  const id = useId();
  const [form, setForm] = useState<ExportForm>(initial);
  const [touched, setTouched] = useState<ReadonlySet<keyof ExportForm>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const errors = useMemo(() => validate(form, now), [form, now]);
  const shown = (field: keyof ExportForm) => (attempted || touched.has(field) ? errors[field] : undefined);
  const assets = useApiQuery({ key: DATA_QUERIES.assets(form.organizationId), load: () => calls.assets(form.organizationId) });
  const submit = useSubmit({ context: 'reports', invalidates: [DATA_QUERIES.allExports], onSuccess: onDone });

  const set = <K extends keyof ExportForm>(field: K, value: ExportForm[K]) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    setTouched((previous) => new Set(previous).add(field));
    setNow(Date.now());
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const at = Date.now();
    setNow(at);
    if (Object.keys(validate(form, at)).length > 0) return;
    void submit.submit(() => calls.createExport(toExportRequest(form)));
  };
  const fieldId = (name: string) => `${id}-${name}`;
  const error = (field: keyof ExportForm) => {
    const message = shown(field);
    return message ? (
      <p id={fieldId(`${field}-error`)} className="field-error" role="alert">
        {message}
      </p>
    ) : null;
  };
  const described = (field: keyof ExportForm) => (shown(field) ? fieldId(`${field}-error`) : undefined);
  const rangeRequired = form.exportType !== 'thing';
  const zone = wizardZone(form.useUtc, userZone);

  return (
    <form className="form" noValidate onSubmit={onSubmit} aria-labelledby="wizard-title">
      <h1 id="wizard-title">
        {DATA_TEXT.wizardStepForm}: {EXPORT_TYPE_LABELS[form.exportType]}
      </h1>
      <div className="field">
        <label htmlFor={fieldId('title')}>{requiredLabel(DATA_TEXT.title)}</label>
        <input
          id={fieldId('title')}
          value={form.title}
          aria-required
          aria-invalid={shown('title') ? true : undefined}
          aria-describedby={described('title')}
          onChange={(event) => set('title', event.target.value)}
        />
        {error('title')}
      </div>
      <div className="field">
        <label htmlFor={fieldId('organizationId')}>{requiredLabel(DATA_TEXT.organization)}</label>
        <select
          id={fieldId('organizationId')}
          value={form.organizationId}
          onChange={(event) => {
            // Another organization's assets: the chosen ones no longer apply.
            set('organizationId', event.target.value);
            setForm((previous) => ({ ...previous, thingUuids: [] }));
          }}
        >
          {organizations.map((org) => (
            <option key={org.id} value={org.id}>
              {org.name}
            </option>
          ))}
        </select>
        {error('organizationId')}
      </div>
      <div className="wizard-range">
        <div className="field">
          <label htmlFor={fieldId('startTime')}>{rangeRequired ? requiredLabel(DATA_TEXT.startTime) : DATA_TEXT.startTime}</label>
          <input
            id={fieldId('startTime')}
            type="datetime-local"
            value={toMinuteInput(form.startTime, zone)}
            aria-invalid={shown('startTime') ? true : undefined}
            aria-describedby={described('startTime')}
            onChange={(event) => set('startTime', readDateInput(event.target, zone))}
          />
          {error('startTime')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('endTime')}>{rangeRequired ? requiredLabel(DATA_TEXT.endTime) : DATA_TEXT.endTime}</label>
          <input
            id={fieldId('endTime')}
            type="datetime-local"
            value={toMinuteInput(form.endTime, zone)}
            aria-invalid={shown('endTime') ? true : undefined}
            aria-describedby={described('endTime')}
            onChange={(event) => set('endTime', readDateInput(event.target, zone))}
          />
          {error('endTime')}
        </div>
      </div>
      <label className="wizard-check">
        <input type="checkbox" checked={form.useUtc} onChange={(event) => set('useUtc', event.target.checked)} /> {DATA_TEXT.useUtc}
      </label>
      {form.exportType === 'incident' && (
        <label className="wizard-check">
          <input type="checkbox" checked={form.includeNoThingIl} onChange={(event) => set('includeNoThingIl', event.target.checked)} />{' '}
          {DATA_TEXT.includeNoThingIl}
        </label>
      )}
      {form.exportType === 'closure' && (
        <fieldset className="wizard-fieldset" aria-describedby={described('closuresToInclude')}>
          <legend>{DATA_TEXT.closuresToInclude}</legend>
          {CLOSURE_EXPORT_INCLUDES.map((kind: ClosureExportInclude) => (
            <label key={kind} className="wizard-check">
              <input
                type="checkbox"
                checked={form.closuresToInclude.includes(kind)}
                onChange={(event) =>
                  set(
                    'closuresToInclude',
                    event.target.checked ? [...form.closuresToInclude, kind] : form.closuresToInclude.filter((k) => k !== kind),
                  )
                }
              />{' '}
              {kind === 'manual' ? DATA_TEXT.manualClosures : DATA_TEXT.feedClosures}
            </label>
          ))}
          {error('closuresToInclude')}
        </fieldset>
      )}
      <ExportAssetPicker
        assets={assets.data ?? null}
        loading={assets.isPending}
        selected={form.thingUuids}
        required={form.exportType === 'point'}
        describedBy={described('thingUuids')}
        onChange={(ids) => {
          set('thingUuids', ids);
          // A closure export's rule reads the assets too: its message follows them.
          if (form.exportType === 'closure') setTouched((previous) => new Set(previous).add('closuresToInclude'));
        }}
      >
        {error('thingUuids')}
      </ExportAssetPicker>
      <SubmitFailure failure={submit.failure} />
      <div className="wizard-actions">
        <button type="button" className="button button-secondary" onClick={onBack}>
          {DATA_TEXT.back}
        </button>
        <button type="submit" className="button button-primary" disabled={submit.pending}>
          {submit.pending ? DATA_TEXT.submitting : DATA_TEXT.submit}
        </button>
      </div>
    </form>
  );
}
