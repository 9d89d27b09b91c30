import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';

interface LinkedRowProps {
  to: string;
  /** The row's name, a link in its first cell. */
  name: ReactNode;
  /** Shown under the name, inside the first cell. */
  nameDetail?: ReactNode;
  /** The cells after the first. */
  children: ReactNode;
}

/**
 * A row of an interactive table that opens `to` when clicked anywhere. The name is a real link as well,
 * for keyboard and screen reader users; its own click stops there so the page opens only once.
 */
export function LinkedRow({ to, name, nameDetail, children }: LinkedRowProps) {
  const navigate = useNavigate();
  return (
    <tr onClick={() => navigate(to)}>
      <td className="mrn-cell-title" data-label="Name">
        <Link to={to} onClick={(event) => event.stopPropagation()}>
          {name}
        </Link>
        {nameDetail}
      </td>
      {children}
    </tr>
  );
}
