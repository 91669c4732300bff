import { Outlet } from 'react-router-dom';
import { SessionDialogs } from './session/session-dialogs';

/** Every route's frame: the page and the session's dialogs above it. */
export function AppFrame() {
  return (
    <>
      <Outlet />
      <SessionDialogs />
    </>
  );
}
