/**
 * The save of both asset edit tabs (part 1 §7 PUT /things/{id}, /associations; §8 asset save):
 * send, let the worker fetch what changed (so the detail shows the saved values at once), go back
 * to the detail; a failure becomes the catalogue's text under the form.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../app/api-client';
import { useLive } from '../../app/live/hooks';
import { errorText, type UserError } from '../../domain/errors';
import { thingHref } from './thing-paths';

export function useAssetSave(assetId: string): { failure: UserError | null; save(send: () => Promise<unknown>): Promise<void> } {
  const { bridge } = useLive();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<UserError | null>(null);
  return {
    failure,
    async save(send) {
      setFailure(null);
      try {
        await send();
        await bridge?.refresh().catch(() => undefined);
        navigate(thingHref(assetId));
      } catch (error) {
        setFailure(error instanceof ApiError ? error.userError : errorText('assetSave', { status: 0 }));
      }
    },
  };
}
