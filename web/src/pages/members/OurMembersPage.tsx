import { Classes, H2, Intent, Tag } from '@blueprintjs/core';
import { PAGE_SIZES, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { websiteHref, websiteLabel } from '../../accounts/website.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useListParams } from '../../ui/use-list-params.ts';

const COLUMNS = ['Name', 'Website', 'Plan'];

/** /members, "Our Members": the funders with an active membership (core §2, accounts §2). */
export function OurMembersPage() {
  useDocumentTitle('Our Members');
  const list = useListParams(PAGE_SIZES, PAGE_SIZES[0]);
  const members = useApiQuery(
    routes.listMemberFunders,
    { query: { page: list.page, per_page: list.perPage } },
    { placeholderData: keepPreviousData, meta: { errorToast: true } },
  );
  const rows = members.data?.data ?? [];

  return (
    <div className="mrn-page">
      <header className="mrn-page-header">
        <H2>Our Members</H2>
        <p className={Classes.TEXT_MUTED}>The funders who share their experience through the network.</p>
      </header>
      {members.data && <PagedListToolbar list={list} pageSizes={PAGE_SIZES} query={members} />}
      <ListState
        isPending={members.isPending}
        error={members.error}
        isEmpty={rows.length === 0}
        emptyIcon="people"
        emptyTitle="No member funders yet"
      />
      {rows.length > 0 && (
        <TableCard caption="Member funders" columns={COLUMNS}>
          {rows.map((m) => {
            const href = websiteHref(m.website);
            return (
              <tr key={m.resource_id}>
                <td className="mrn-cell-title" data-label="Name">
                  {m.name}
                </td>
                <td data-label="Website" className="mrn-break">
                  {href && m.website ? (
                    <a href={href} target="_blank" rel="noopener noreferrer">
                      {websiteLabel(m.website)}
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Plan">
                  <Tag minimal intent={m.plan_level === 'PRO' ? Intent.PRIMARY : Intent.NONE}>
                    {m.plan_level}
                  </Tag>
                </td>
              </tr>
            );
          })}
        </TableCard>
      )}
    </div>
  );
}
