/**
 * The 4-hour inactivity timer with its 10-second 'Inactivity Warning' (part 1 §4): the last
 * activity of this tab or another, the deadline after it, and the countdown that signs out.
 */
import { INACTIVITY_TIMEOUT_MS, SECOND_MS } from '../../domain/constants';
import { SESSION_TEXT } from '../../domain/labels';
import { PROMPT_SECONDS, type SessionNotice, type SessionState } from './session-state';
import { ACTIVITY_SHARE_MS, type PostToTabs } from './tab-channel';

export interface InactivityOptions {
  state: SessionState;
  post: PostToTabs;
  signOut(notice: SessionNotice): void;
}

/** One tab's inactivity timer; activity here and in the other tabs moves its deadline on. */
export class Inactivity {
  private inactivityTimer: ReturnType<typeof setTimeout> | null = null;
  private countdownTimer: ReturnType<typeof setInterval> | null = null;
  private lastActivity = Date.now();
  private lastShared = 0;

  constructor(private readonly options: InactivityOptions) {}

  /** A session began: the 4 hours run from now. */
  restart(): void {
    this.lastActivity = Date.now();
    this.schedule();
  }

  /** Stops the timer and the countdown (the prompt closes). */
  clear(): void {
    const { state } = this.options;
    if (this.inactivityTimer) clearTimeout(this.inactivityTimer);
    if (this.countdownTimer) clearInterval(this.countdownTimer);
    this.inactivityTimer = this.countdownTimer = null;
    state.inactivity.prompting = false;
    state.inactivity.secondsLeft = PROMPT_SECONDS;
  }

  /** Mouse, key, touch or scroll in this tab. */
  record(): void {
    const { state, post } = this.options;
    if (state.status !== 'signedIn' || state.inactivity.prompting) return;
    const now = Date.now();
    this.lastActivity = now;
    if (now - this.lastShared >= ACTIVITY_SHARE_MS) {
      this.lastShared = now;
      post({ type: 'activity', at: now });
    }
  }

  staySignedIn(): void {
    this.stopPrompt();
    this.lastActivity = Date.now();
    this.options.post({ type: 'activity', at: this.lastActivity });
    this.schedule();
  }

  /** The awareness mode changed: the 4 hours run from now, or not at all while it is on. */
  resume(): void {
    this.stopPrompt();
    this.lastActivity = Date.now();
    this.schedule();
  }

  /** Activity in another tab. */
  fromOtherTab(at: number): void {
    if (at <= this.lastActivity) return;
    this.lastActivity = at;
    if (this.options.state.inactivity.prompting) {
      this.stopPrompt();
      this.schedule();
    }
  }

  private schedule(): void {
    const { state } = this.options;
    if (this.inactivityTimer) clearTimeout(this.inactivityTimer);
    this.inactivityTimer = null;
    if (state.status !== 'signedIn' || state.awarenessMode) return;
    const due = this.lastActivity + INACTIVITY_TIMEOUT_MS - Date.now();
    this.inactivityTimer = setTimeout(
      () => {
        this.inactivityTimer = null;
        // Activity moved the deadline on: wait for the rest.
        if (Date.now() - this.lastActivity < INACTIVITY_TIMEOUT_MS) this.schedule();
        else this.prompt();
      },
      Math.max(0, due),
    );
  }

  private prompt(): void {
    const { state, signOut } = this.options;
    state.inactivity.prompting = true;
    state.inactivity.secondsLeft = PROMPT_SECONDS;
    this.countdownTimer = setInterval(() => {
      state.inactivity.secondsLeft -= 1;
      if (state.inactivity.secondsLeft <= 0) signOut({ title: SESSION_TEXT.sessionExpiredActivity });
    }, SECOND_MS);
  }

  private stopPrompt(): void {
    const { state } = this.options;
    if (this.countdownTimer) clearInterval(this.countdownTimer);
    this.countdownTimer = null;
    state.inactivity.prompting = false;
    state.inactivity.secondsLeft = PROMPT_SECONDS;
  }
}
