/**
 * The trips query form (part 2 §2 Trips "The user picks 1 to 5 assets and a past time range of up
 * to 24 hours"; §5 "Trips and date-range reports"): the asset picker and the start and end at
 * minute precision, checked by the domain's `tripsFormSchema` at the moment of the submit; each
 * message shows under its field.
 */
import { useState, type FormEvent } from 'react';
import { AssetPicker } from '../../app/ui/asset-picker';
import type { FleetEntry } from '../../app/fleet-list';
import { MinuteField } from '../../app/ui/minute-field';
import { TRIPS_TEXT } from '../../domain/labels';
import { tripCssColor } from '../../map/layers/trips-layer';
import { fromMinuteInput, toMinuteInput } from '../../domain/time';
import { fieldErrors } from '../../domain/validation/field-errors';
import { tripsFormSchema } from '../../domain/validation/reports';

export interface TripsQuery {
  thingIds: string[];
  startTime: number;
  endTime: number;
}

export interface TripsFormProps {
  entries: readonly FleetEntry[] | null;
  initial: { thingIds: string[]; startTime: number; endTime: number };
  timeZone: string | null;
  onSubmit(query: TripsQuery): void;
  now?: () => number;
}

export function TripsForm({ entries, initial, timeZone, onSubmit, now = Date.now }: TripsFormProps) {
  const [thingIds, setThingIds] = useState<string[]>(initial.thingIds);
  const [start, setStart] = useState(() => toMinuteInput(initial.startTime, timeZone));
  const [end, setEnd] = useState(() => toMinuteInput(initial.endTime, timeZone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);

  const check = (ids: string[], startText: string, endText: string) => {
    const form = { thingIds: ids, startTime: fromMinuteInput(startText, timeZone), endTime: fromMinuteInput(endText, timeZone) };
    const result = tripsFormSchema({ now: now() }).safeParse(form);
    return { form, result, errors: fieldErrors(result) };
  };
  // After a first submit the messages follow every change; the asset limit shows at once.
  const recheck = (ids: string[], startText: string, endText: string) => {
    const next = check(ids, startText, endText).errors;
    setErrors(submitted ? next : next['thingIds'] && ids.length > 0 ? { thingIds: next['thingIds'] } : {});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { form, result, errors: found } = check(thingIds, start, end);
    setErrors(found);
    if (!result.success) return;
    onSubmit({ thingIds: [...form.thingIds] as string[], startTime: form.startTime!, endTime: form.endTime! });
  };

  return (
    <form className="form report-form" noValidate onSubmit={submit} aria-label={TRIPS_TEXT.title}>
      <AssetPicker
        label={TRIPS_TEXT.assets}
        entries={entries}
        chosen={thingIds}
        onChange={(next) => {
          setThingIds(next);
          recheck(next, start, end);
        }}
        error={errors['thingIds']}
        loadingText={TRIPS_TEXT.loadingAssets}
        emptyText={TRIPS_TEXT.noAssets}
        chipMark={(_, index) => <span className="trips-swatch" style={{ background: tripCssColor(index) }} aria-hidden="true" />}
      />
      <div className="report-range">
        <MinuteField
          label={TRIPS_TEXT.start}
          value={start}
          onChange={(value) => {
            setStart(value);
            recheck(thingIds, value, end);
          }}
          error={errors['startTime']}
        />
        <MinuteField
          label={TRIPS_TEXT.end}
          value={end}
          onChange={(value) => {
            setEnd(value);
            recheck(thingIds, start, value);
          }}
          error={errors['endTime']}
        />
      </div>
      <button type="submit" className="button button-primary">
        {TRIPS_TEXT.submit}
      </button>
    </form>
  );
}
