/**
 * The one view of an item page that has no item to show (part 1 §2, part 2 §2 detail and edit
 * pages): still loading (a status line), not found or failed to load (an alert with the
 * catalogue's or the section's text), under the page's header.
 */
import { useEffect, type ReactNode } from 'react';
import type { UserError } from '../../domain/errors';
import { SECTION_TEXT } from '../../domain/labels';
import { useItemMemory } from './item-memory';
import './section.css';

export type ItemStateKind = 'loading' | 'missing' | 'failed';

export interface ItemStateProps {
  state: ItemStateKind;
  /** The section's words: not found (required), loading (default 'Loading...'). */
  texts: { notFound: string; loading?: string };
  /** With 'failed': the catalogue's text of the failed read (part 1 §8). */
  failure?: UserError | null;
  /** The page's header (Back and a title) drawn above. */
  header?: ReactNode;
  className?: string;
}

export function ItemState({ state, texts, failure, header, className }: ItemStateProps) {
  // An item that is not there (deleted, or never was) is not remembered for its section's link.
  const memory = useItemMemory();
  useEffect(() => {
    if (state === 'missing') memory.forgetShownItem();
  }, [state, memory]);
  return (
    <section className={className ? `item-state ${className}` : 'item-state'} aria-busy={state === 'loading'}>
      {header}
      {state === 'loading' ? (
        <p className="item-state-text" role="status">
          {texts.loading ?? SECTION_TEXT.loading}
        </p>
      ) : (
        <p className="item-state-text" role="alert">
          {state === 'failed' && failure ? failure.text : texts.notFound}
        </p>
      )}
    </section>
  );
}

/** A failed write's text under its form (part 1 §8, part 2: "Server errors of forms show under the form"). */
export function SubmitFailure({ failure }: { failure: UserError | null }) {
  if (!failure) return null;
  return (
    <p className="form-alert form-alert-error" role="alert">
      {failure.text}
    </p>
  );
}
