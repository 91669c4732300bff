import { Outlet } from 'react-router-dom';
import { SessionDialogs } from './session/session-dialogs';
import { LeaveGuardHost } from './ui/leave-guard';

/** Every route's frame: the page (its forms guarded against leaving with changes not saved) and the session's dialogs above it. */
export function AppFrame() {
  return (
    <>
      <LeaveGuardHost>
        <Outlet />
      </LeaveGuardHost>
      <SessionDialogs />
    </>
  );
}
