/**
 * A section's list page (part 1 §2 lists; part 2 §2 "a search box and a type filter. It shows
 * the count as Showing (x/total), with rows 75px high and an add-new button"): the title and the
 * add-new button, the search box, a slot for the section's filters, the count line, then the
 * virtualized rows (react-window 2) at the section's row heights — or the empty text.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { List, type ListProps, type RowComponentProps } from 'react-window';
import { SECTION_TEXT, showingText } from '../../domain/labels';
import { RefusedButton } from '../ui/refused-button';
import { SearchBox, type SearchBoxProps } from './search-box';
import './section.css';

/** The rows' height before the list is measured (and in a browser with no ResizeObserver). */
export const LIST_DEFAULT_HEIGHT = 600;
/** Rows drawn beyond the visible ones, so a short scroll shows drawn rows. */
export const LIST_OVERSCAN = 4;

export type RowsProps<RowProps extends object> = Pick<
  ListProps<RowProps>,
  'rowComponent' | 'rowCount' | 'rowHeight' | 'rowProps' | 'onRowsRendered' | 'className' | 'role'
> & { label: string };

/** The virtualized rows of a list: `rowHeight` a number or a function of the row (the spec's heights). */
export function VirtualRows<RowProps extends object>({ label, ...rows }: RowsProps<RowProps>) {
  return <List<RowProps> aria-label={label} defaultHeight={LIST_DEFAULT_HEIGHT} overscanCount={LIST_OVERSCAN} {...rows} />;
}

export type { RowComponentProps };

export interface ListFrameProps<RowProps extends object> {
  title: ReactNode;
  /** The element the page is labelled by (the title's id). */
  titleId?: string;
  className?: string;
  search?: SearchBoxProps | null;
  /** The section's filters (selects, toggles, a filters panel), after the search. */
  filters?: ReactNode;
  /** The count line: 'Showing (x/total)' when `shown` and `total` are given and no `count`. */
  shown?: number;
  total?: number;
  count?: ReactNode;
  /**
   * The add-new button (part 2 §2). `href` null: the user may not create, and the button shows
   * disabled with part 2 §6's tooltip 'Not authorized'; no `addNew`: the section has none here.
   */
  addNew?: { href: string | null; label?: string } | null;
  /** Shown instead of the rows when given (no row matches); null: no rows (nothing to list yet). */
  empty?: ReactNode;
  /** The rows, drawn by VirtualRows. */
  rows?: RowsProps<RowProps>;
  /** Or the section's own list (one that reads the live store for its rows), built on VirtualRows. */
  list?: ReactNode;
  /** Drawn between the count and the rows (a progress bar, counts per status). */
  children?: ReactNode;
}

export function ListFrame<RowProps extends object>({
  title,
  titleId = 'section-title',
  className,
  search,
  filters,
  shown,
  total,
  count,
  addNew,
  empty,
  rows,
  list,
  children,
}: ListFrameProps<RowProps>) {
  const countLine =
    count ?? (shown !== undefined && total !== undefined ? <p className="list-count">{showingText(shown, total)}</p> : null);
  return (
    <section className={className ? `list-frame ${className}` : 'list-frame'} aria-labelledby={titleId}>
      <h1 id={titleId}>{title}</h1>
      {addNew &&
        (addNew.href === null ? (
          <RefusedButton className="button button-primary list-add">{addNew.label ?? SECTION_TEXT.addNew}</RefusedButton>
        ) : (
          <Link className="button button-primary list-add" to={addNew.href}>
            {addNew.label ?? SECTION_TEXT.addNew}
          </Link>
        ))}
      {(search || filters) && (
        <div className="list-frame-controls">
          {search && <SearchBox {...search} />}
          {filters}
        </div>
      )}
      {countLine}
      {children}
      {empty !== undefined ? empty : rows ? <VirtualRows<RowProps> {...rows} /> : list}
    </section>
  );
}
