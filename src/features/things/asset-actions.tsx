/**
 * The detail's actions (part 1 §2 "Actions", §5 rules and tooltips, §7 calls, §8 texts):
 * - R2R test alert: PUT /things/{id}/r2r {action: 'test'}; 'Sending test', then 'Alert Delivered' or
 *   'Alert Not Delivered' (with the catalogue's reason when the call failed), cleared after 10 s;
 * - test mode (assets allowed test mode only): PUT /things/{id}/r2r {test_mode}; 'Updating Test Mode',
 *   on success when turned on the reminder to activate the lights, on failure 'Unable to
 *   activate/deactivate Test Mode' with the reason;
 * - LED intensity: PUT /things/{id}/light_intensity {light_intensity}; 'Sending update', then
 *   'Update was successful' or the reason, cleared after 4 s.
 * A control that may not run is disabled and shows its tooltip ('Not authorized', ...).
 */
import { useEffect, useId, useState } from 'react';
import { LED_RESULT_CLEAR_MS, LIGHT_INTENSITY_OPTIONS, R2R_RESULT_CLEAR_MS } from '../../domain/constants';
import type { UserError } from '../../domain/errors';
import { ASSET_TEXT, LED_TEXT, R2R_TEXT, TEST_MODE_TEXT, TOOLTIP } from '../../domain/labels';
import {
  canChangeLightIntensity,
  canRunR2RTest,
  hasPermission,
  type ActionAvailability,
  type PermissionList,
} from '../../domain/permissions';
import { userErrorOf } from '../../app/api-client';
import { Toggle } from '../../app/ui/toggle';
import type { AssetDetails } from '../../domain/live-diff';
import { useTimedResult, type TimedResult } from './use-timed-result';
import { useThingCalls } from './calls';

/** The catalogue's text of a failed asset action (part 1 §8 "Asset action"). */
function actionError(error: unknown): UserError {
  return userErrorOf(error, 'assetAction');
}

function ResultLine({ result }: { result: TimedResult | null }) {
  return (
    <div className="action-result" role="status" aria-live="polite">
      {result && (
        <p className={`action-result-${result.tone}`}>
          {result.text}
          {result.detail && <span className="action-result-detail">{result.detail}</span>}
        </p>
      )}
    </div>
  );
}

/** A control's tooltip when it may not run: on hover (title) and written under it. */
function Tooltip({ id, availability }: { id: string; availability: ActionAvailability }) {
  if (availability.allowed || !availability.tooltip) return null;
  return (
    <p id={id} role="tooltip" className="action-tooltip">
      {availability.tooltip}
    </p>
  );
}

function R2RTest({ asset, permissions }: { asset: AssetDetails; permissions: PermissionList }) {
  const calls = useThingCalls();
  const tooltipId = useId();
  const { result, pending, settle } = useTimedResult(R2R_RESULT_CLEAR_MS);
  const availability = canRunR2RTest(asset, permissions);
  const busy = result?.tone === 'pending';
  const send = async () => {
    pending(R2R_TEXT.sending);
    try {
      const delivered = await calls.testAlert(asset.id);
      settle(delivered ? { tone: 'success', text: R2R_TEXT.delivered } : { tone: 'failure', text: R2R_TEXT.notDelivered });
    } catch (error) {
      settle({ tone: 'failure', text: R2R_TEXT.notDelivered, detail: actionError(error).text });
    }
  };
  return (
    <div className="action">
      <span title={availability.tooltip ?? undefined} className="action-control">
        <button
          type="button"
          className="button button-secondary"
          disabled={!availability.allowed || busy}
          aria-describedby={availability.allowed ? undefined : tooltipId}
          onClick={() => void send()}
        >
          {ASSET_TEXT.r2rTest}
        </button>
      </span>
      <Tooltip id={tooltipId} availability={availability} />
      <ResultLine result={result} />
    </div>
  );
}

function TestMode({ asset, permissions }: { asset: AssetDetails; permissions: PermissionList }) {
  const calls = useThingCalls();
  const tooltipId = useId();
  // No clearing time in part 1 §8: the line stays until the next change.
  const { result, pending, settle, clear } = useTimedResult(null);
  // The server's answer shows at once; the live data catches up on its own.
  const [answered, setAnswered] = useState<boolean | null>(null);
  useEffect(() => {
    setAnswered(null);
    clear();
  }, [asset.id, clear]);
  useEffect(() => {
    if (answered !== null && asset.isTestModeOn === answered) setAnswered(null);
  }, [answered, asset.isTestModeOn]);
  const on = answered ?? asset.isTestModeOn;
  const allowed = hasPermission(permissions, 'thing:invoke_r2r');
  const availability: ActionAvailability = allowed ? { allowed: true, tooltip: null } : { allowed: false, tooltip: TOOLTIP.notAuthorized };
  const busy = result?.tone === 'pending';
  const change = async (next: boolean) => {
    pending(TEST_MODE_TEXT.updating);
    try {
      const isOn = await calls.setTestMode(asset.id, next);
      setAnswered(isOn);
      if (isOn) settle({ tone: 'success', text: TEST_MODE_TEXT.activated });
      else clear();
    } catch (error) {
      settle({
        tone: 'failure',
        text: next ? TEST_MODE_TEXT.activateFailed : TEST_MODE_TEXT.deactivateFailed,
        detail: actionError(error).text,
      });
    }
  };
  return (
    <div className="action" aria-describedby={allowed ? undefined : tooltipId}>
      <span title={availability.tooltip ?? undefined} className="action-control">
        <Toggle label={ASSET_TEXT.testMode} checked={on} disabled={!allowed || busy} onChange={(next) => void change(next)} />
      </span>
      <Tooltip id={tooltipId} availability={availability} />
      <ResultLine result={result} />
    </div>
  );
}

function LedIntensity({ asset, permissions }: { asset: AssetDetails; permissions: PermissionList }) {
  const calls = useThingCalls();
  const selectId = useId();
  const tooltipId = useId();
  const [value, setValue] = useState<number | null>(null);
  const { result, pending, settle } = useTimedResult(LED_RESULT_CLEAR_MS);
  const availability = canChangeLightIntensity(asset, permissions, value);
  // The select itself follows the permission and status rules; the send button also needs a value.
  const selectable = canChangeLightIntensity(asset, permissions, LIGHT_INTENSITY_OPTIONS[0]);
  const busy = result?.tone === 'pending';
  const send = async () => {
    if (value === null) return;
    pending(LED_TEXT.sending);
    try {
      await calls.setLightIntensity(asset.id, value);
      settle({ tone: 'success', text: LED_TEXT.success });
    } catch (error) {
      settle({ tone: 'failure', text: actionError(error).text });
    }
  };
  return (
    <div className="action">
      <div className="action-led" title={availability.tooltip ?? undefined}>
        <label htmlFor={selectId}>{ASSET_TEXT.ledIntensity}</label>
        <select
          id={selectId}
          className="select-native"
          value={value === null ? '' : String(value)}
          disabled={!selectable.allowed || busy}
          onChange={(event) => setValue(event.target.value === '' ? null : Number(event.target.value))}
        >
          <option value="">Select...</option>
          {LIGHT_INTENSITY_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}%
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-secondary"
          disabled={!availability.allowed || busy}
          aria-describedby={availability.tooltip ? tooltipId : undefined}
          onClick={() => void send()}
        >
          {ASSET_TEXT.sendLed}
        </button>
      </div>
      <Tooltip id={tooltipId} availability={availability} />
      <ResultLine result={result} />
    </div>
  );
}

export function AssetActions({ asset, permissions }: { asset: AssetDetails; permissions: PermissionList }) {
  const titleId = useId();
  return (
    <section className="detail-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{ASSET_TEXT.actions}</h2>
      <R2RTest asset={asset} permissions={permissions} />
      {asset.isAllowedForTestMode && <TestMode asset={asset} permissions={permissions} />}
      <LedIntensity asset={asset} permissions={permissions} />
    </section>
  );
}
