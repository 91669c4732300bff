/** The events section's item pages without their event, and Back to the panel (part 1 §2). */
import { useNavigate, useOutletContext } from 'react-router-dom';
import { setTarget } from '../../app/map/map-state';
import { BackButton } from '../../app/section/detail-header';
import { itemHref } from '../../app/section/item-href';
import { ItemState } from '../../app/section/item-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';
import { EVENTS_TEXT } from '../../domain/labels';

/** Back to the panel; the targeted event is cleared (part 1 §2: back clears the targeted item). */
export function useBackToPanel(): () => void {
  const { map } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  return () => {
    setTarget(map, null);
    navigate(itemHref('events'));
  };
}

/** The page of an event that is still loading or not kept (detail and edit): Back and the state. */
export function EventPending({ className, loading }: { className: string; loading: boolean }) {
  const back = useBackToPanel();
  return (
    <ItemState
      className={className}
      state={loading ? 'loading' : 'missing'}
      texts={{ notFound: EVENTS_TEXT.notFound, loading: EVENTS_TEXT.loading }}
      header={<BackButton onBack={back} />}
    />
  );
}
