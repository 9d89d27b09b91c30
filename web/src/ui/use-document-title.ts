import { useEffect } from 'react';
import { PRODUCT_NAME } from '../product.ts';

/** Names the browser tab after the page: "Sign in · Merchant Risk Network". */
export function useDocumentTitle(pageTitle: string): void {
  useEffect(() => {
    document.title = `${pageTitle} · ${PRODUCT_NAME}`;
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [pageTitle]);
}
