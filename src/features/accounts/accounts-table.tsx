/**
 * An accounts panel's table of one answer (part 2 §2 accounts tabs): the loading line, the
 * call's failure, the empty text, or the rows under their column headers, the last column the
 * row's actions.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiError } from '../../app/api-client';
import { ACCOUNTS_TEXT, SECTION_TEXT } from '../../domain/labels';

export interface AccountsTableProps<D, T> {
  answer: UseQueryResult<D, ApiError>;
  /** The rows of the answer. */
  rows(data: D): readonly T[];
  columns: readonly string[];
  /** A first header cell before the columns (the Assets tab's select-all box); each row then starts with its own cell. */
  lead?: ReactNode;
  /** Shown instead of an empty table; none: the table shows with no rows. */
  empty?: string;
  /** One `<tr>` with its key. */
  renderRow(row: T): ReactNode;
}

export function AccountsTable<D, T>({ answer, rows, columns, lead, empty, renderRow }: AccountsTableProps<D, T>) {
  if (answer.isPending) return <p role="status">{SECTION_TEXT.loading}</p>;
  if (answer.isError) return <p role="alert">{answer.error.userError.text}</p>;
  const list = rows(answer.data);
  if (list.length === 0 && empty !== undefined) return <p>{empty}</p>;
  return (
    <table className="accounts-table">
      <thead>
        <tr>
          {lead !== undefined && <th scope="col">{lead}</th>}
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">{ACCOUNTS_TEXT.actions}</span>
          </th>
        </tr>
      </thead>
      <tbody>{list.map(renderRow)}</tbody>
    </table>
  );
}
