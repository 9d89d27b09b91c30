/**
 * The notification consumer of DESIGN §1: matches events to merchant subscriptions and delivers
 * signed webhooks and e-mails. It arrives with merchant subscriptions (accounts spec §2, §7); the
 * package exists now so that the workspace layout and the server's composition are final.
 */
export const DISPATCHER_NAME = 'webhook-dispatcher';
