/** The product's display name (the server's PRODUCT_NAME default). */
export const PRODUCT_NAME = 'Merchant Risk Network';

/** Where the footer's "PRO site" link points: the public PRO marketing page. */
export const PRO_SITE_PATH = '/pro';
