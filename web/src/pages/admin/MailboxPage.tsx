import { Button, Classes, Dialog, DialogBody, DialogFooter, H2 } from '@blueprintjs/core';
import { DEV_MAILBOX_PAGE_SIZES, routes } from '@mrn/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiQuery } from '../../api/hooks.ts';
import { formatDateTime } from '../../merchants/format.ts';
import { ListState } from '../../ui/ListState.tsx';
import { PagedListToolbar } from '../../ui/PagedListToolbar.tsx';
import { TableCard } from '../../ui/TableCard.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { useListParams } from '../../ui/use-list-params.ts';
import { useReturnFocus } from '../../ui/use-return-focus.ts';
import { mailLinkHref, splitLinks } from './mail-links.ts';

const COLUMNS = ['Received', 'To', 'Subject'];

interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  received_at: string;
}

function MailBody({ text }: { text: string }) {
  const origin = window.location.origin;
  return (
    <pre className="mrn-mail-body">
      {splitLinks(text).map((part, index) => {
        if (part.kind === 'text') return part.text;
        const href = mailLinkHref(part.url, origin);
        return href.startsWith('/') ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text
          <Link key={index} to={href}>
            {part.url}
          </Link>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text
          <a key={index} href={href} target="_blank" rel="noopener noreferrer">
            {part.url}
          </a>
        );
      })}
    </pre>
  );
}

/**
 * /mailbox: the development mailbox, where the product's e-mails land without a real SMTP server; newest
 * first, a page at a time, searched on the server (address, subject or text).
 */
export function MailboxPage() {
  useDocumentTitle('Mailbox');
  const [open, setOpen] = useState<Mail | null>(null);
  const list = useListParams(DEV_MAILBOX_PAGE_SIZES, DEV_MAILBOX_PAGE_SIZES[0]);
  const mail = useApiQuery(
    routes.listDevMailbox,
    { query: { page: list.page, per_page: list.perPage, search: list.search || undefined } },
    {
      placeholderData: keepPreviousData,
      meta: { errorToast: true },
      staleTime: 0,
      refetchInterval: 15_000,
    },
  );
  const rows = mail.data?.data ?? [];

  const returnFocus = useReturnFocus(open !== null);
  return (
    <div className="mrn-page">
      <header className="mrn-page-header mrn-header-row">
        <div>
          <H2>Mailbox</H2>
          <p className={Classes.TEXT_MUTED}>
            E-mails the product sent (invitations, password resets, notifications), newest first.
          </p>
        </div>
        <Button icon="refresh" text="Refresh" loading={mail.isFetching} onClick={() => void mail.refetch()} />
      </header>
      <PagedListToolbar
        list={list}
        pageSizes={DEV_MAILBOX_PAGE_SIZES}
        query={mail}
        searchPlaceholder="Search by address, subject or text"
      />
      <ListState
        isPending={mail.isPending}
        error={mail.error}
        isEmpty={rows.length === 0}
        emptyIcon="inbox"
        emptyTitle={list.search ? 'No e-mail matches this search' : 'The mailbox is empty'}
      />
      {rows.length > 0 && (
        <TableCard caption="Mailbox" columns={COLUMNS} interactive>
          {rows.map((m) => (
            <tr key={m.id} onClick={() => setOpen(m)}>
              <td data-label="Received" className="mrn-nowrap">
                {formatDateTime(m.received_at)}
              </td>
              <td data-label="To" className="mrn-break">
                {m.to}
              </td>
              <td data-label="Subject">
                <button type="button" className="mrn-link-button" onClick={() => setOpen(m)}>
                  {m.subject}
                </button>
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      <Dialog
        {...returnFocus}
        isOpen={open !== null}
        onClose={() => setOpen(null)}
        title={open?.subject ?? 'Mail'}
        icon="envelope"
        className="mrn-dialog-wide"
      >
        {open && (
          <>
            <DialogBody>
              <p className={Classes.TEXT_MUTED}>
                To {open.to} · {formatDateTime(open.received_at)}
              </p>
              <MailBody text={open.text} />
            </DialogBody>
            <DialogFooter actions={<Button text="Close" onClick={() => setOpen(null)} />} />
          </>
        )}
      </Dialog>
    </div>
  );
}
