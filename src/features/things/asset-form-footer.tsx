/**
 * The foot of both asset edit tabs (part 1 §5): Save (disabled until changed and while sending),
 * Cancel back to the asset, and the catalogue's text of a failed save under the form (part 1 §8).
 */
import { useNavigate } from 'react-router-dom';
import type { UserError } from '../../domain/errors';
import { SubmitFailure } from '../../app/section/item-state';
import { SaveButton } from '../../app/ui/save-button';
import { thingHref } from './thing-paths';

export function AssetFormFooter({
  assetId,
  dirty,
  submitting,
  failure,
  cancelLabel,
}: {
  assetId: string;
  dirty: boolean;
  submitting: boolean;
  failure: UserError | null;
  cancelLabel: string;
}) {
  const navigate = useNavigate();
  return (
    <>
      <div className="form-actions">
        <SaveButton dirty={dirty} submitting={submitting} />
        <button type="button" className="button button-secondary" onClick={() => navigate(thingHref(assetId))}>
          {cancelLabel}
        </button>
      </div>
      <SubmitFailure failure={failure} />
    </>
  );
}
