/**
 * Several tabs sharing one session: new sessions, sign-outs and activity go to the other tabs over
 * a BroadcastChannel, so a refresh in one tab never signs the others out and activity in one keeps
 * all of them signed in.
 */
import { SECOND_MS } from '../../domain/constants';
import type { StoredSession } from './token-storage';

export type TabMessage = { type: 'session'; session: StoredSession } | { type: 'signOut' } | { type: 'activity'; at: number };

export type TabChannel = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  onmessage: ((event: MessageEvent) => void) | null;
};

export type PostToTabs = (message: TabMessage) => void;

export interface TabHandlers {
  session(session: StoredSession): void;
  signOut(): void;
  activity(at: number): void;
}

export const SESSION_CHANNEL = 'lightbar.session';
/** Activity is shared with other tabs at most this often (chosen: cheap, far below the 4 h window). */
export const ACTIVITY_SHARE_MS = 5 * SECOND_MS;

/** Hands each message of the other tabs to its handler. */
export function listenToTabs(channel: TabChannel, handlers: TabHandlers): void {
  channel.onmessage = (event: MessageEvent) => {
    const message = event.data as TabMessage;
    if (message.type === 'session') handlers.session(message.session);
    else if (message.type === 'signOut') handlers.signOut();
    else if (message.type === 'activity') handlers.activity(message.at);
  };
}
