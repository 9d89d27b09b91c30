import { Button, Menu, MenuItem } from '@blueprintjs/core';
import type { MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSignedInUser } from '../auth/auth-context.ts';
import { MerchantSearchForm } from '../merchants/MerchantSearchForm.tsx';
import { PATHS } from '../routing/paths.ts';
import { isCurrentLink, sidebarLinks } from './sidebar-links.ts';

/** Left navigation; `onNavigate` closes the phone drawer after a choice. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const go = (to: string) => (event: MouseEvent) => {
    // Plain clicks stay in the app; modified clicks (new tab) follow the href.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
    onNavigate?.();
  };

  return (
    <nav className="mrn-sidebar-content" aria-label="Main navigation">
      <MerchantSearchForm placeholder="Full EIN/legal name search" compact onSearch={onNavigate} />
      <Button
        intent="primary"
        icon="plus"
        text="Add Merchant"
        fill
        onClick={() => {
          navigate(PATHS.newMerchant);
          onNavigate?.();
        }}
      />
      <Menu className="mrn-sidebar-menu">
        {sidebarLinks(user).map((link) => (
          <MenuItem
            key={link.to}
            href={link.to}
            icon={link.icon}
            text={link.label}
            active={isCurrentLink(link, pathname)}
            onClick={go(link.to)}
          />
        ))}
      </Menu>
    </nav>
  );
}
