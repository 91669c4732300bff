/**
 * Billing (part 2 §2 accounts "billing", §6 "billing:read exists"): what the server holds — the
 * billing and customer ids and the live asset count by type (GET /organization/billing). No plan
 * or price is shown: the data has none (docs/decisions/spec.md).
 */
import { useApiQuery } from '../../app/use-api-query';
import { ACCOUNTS_TEXT, BILLING_TEXT, SECTION_TEXT } from '../../domain/labels';
import { hasPermission, type PermissionList } from '../../domain/permissions';
import { ACCOUNT_QUERIES, useAccountCalls } from './calls';

export function BillingPanel({ organizationId, permissions }: { organizationId: string; permissions: PermissionList }) {
  const calls = useAccountCalls();
  const allowed = hasPermission(permissions, 'billing:read');
  const billing = useApiQuery({
    key: ACCOUNT_QUERIES.billing(organizationId),
    load: () => calls.billing(organizationId),
    enabled: allowed,
  });
  return (
    <section className="accounts-panel" aria-labelledby="accounts-billing-title">
      <h2 id="accounts-billing-title" className="accounts-heading">
        {ACCOUNTS_TEXT.billingTitle}
      </h2>
      {!allowed ? (
        <p>{BILLING_TEXT.notAuthorized}</p>
      ) : billing.isPending ? (
        <p role="status">{SECTION_TEXT.loading}</p>
      ) : billing.isError ? (
        <p role="alert">{billing.error.userError.text}</p>
      ) : (
        <>
          <dl className="accounts-facts">
            <dt>{BILLING_TEXT.billingId}</dt>
            <dd>{billing.data.billing_id ?? BILLING_TEXT.none}</dd>
            <dt>{BILLING_TEXT.customerId}</dt>
            <dd>{billing.data.maxio_cust_id ?? BILLING_TEXT.none}</dd>
            <dt>{BILLING_TEXT.assetCount}</dt>
            <dd>{billing.data.asset_count}</dd>
          </dl>
          <table className="accounts-table accounts-table-narrow">
            <thead>
              <tr>
                <th scope="col">{BILLING_TEXT.type}</th>
                <th scope="col">{BILLING_TEXT.count}</th>
              </tr>
            </thead>
            <tbody>
              {billing.data.assets_by_type.map((row) => (
                <tr key={row.type}>
                  <th scope="row">{row.display_name || BILLING_TEXT.untyped}</th>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
