/** part 1 §2: a protected path visited while signed out is remembered in the navigation state. */
export interface ReturnState {
  from?: string;
}

export function fromState(state: unknown): string | null {
  if (!state || typeof state !== 'object') return null;
  const from = (state as ReturnState).from;
  return typeof from === 'string' && from.startsWith('/dashboard') ? from : null;
}
