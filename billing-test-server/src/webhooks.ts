import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import { newId } from './ids.ts';

/** What the test helpers report about each POST to the webhook URL. */
export interface Delivery {
  id: string;
  event: string;
  type: string;
  url: string;
  /** 1 for the first try of an event, 2… for its automatic retries. */
  attempt: number;
  reason: 'event' | 'retry' | 'resend' | 'ordered';
  status: number | null;
  ok: boolean;
  error: string | null;
  started_at: number;
  finished_at: number;
}

/** `Stripe-Signature` as Stripe writes it: HMAC-SHA256 of `timestamp.payload`, keyed by the whole `whsec_…`. */
export function signatureHeader(payload: string, secret: string, timestamp = wallClock()): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

interface Job {
  event: Stripe.EventBase;
  url: string;
  secret: string;
  attempt: number;
}

/** Tries after the first failed one, in ms: a few quick ones, where Stripe spreads its own over 3 days. */
const RETRY_DELAYS_MS = [500, 2_000, 5_000];
const TIMEOUT_MS = 10_000;

/**
 * Delivers events one at a time in the order they happened; a failed delivery is retried later
 * without holding back the events after it (so retries can arrive out of order, as with Stripe).
 */
export class WebhookSender {
  url: string | null;
  secret: string;
  readonly deliveries: Delivery[] = [];
  private readonly queue: Job[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private pumping: Promise<void> | null = null;
  private stopped = false;
  /** Test helper: while held, events queue up and nothing is posted (as when an endpoint is slow). */
  private held = false;
  private idleWaiters: Array<() => void> = [];

  constructor(url: string | null, secret: string) {
    this.url = url;
    this.secret = secret;
  }

  /** Stripe sends an event only to endpoints that existed when it happened. */
  enqueue(event: Stripe.EventBase): void {
    if (!this.url || this.stopped) return;
    this.queue.push({ event, url: this.url, secret: this.secret, attempt: 1 });
    this.pump();
  }

  /** Holds deliveries back (they queue) or lets the queue go again, in order. */
  hold(held: boolean): void {
    this.held = held;
    if (!held && this.queue.length > 0) this.pump();
  }

  pending(): number {
    return this.queue.length + this.timers.size + (this.pumping ? 1 : 0);
  }

  /** Resolves once nothing is queued, in flight or waiting to be retried (or after `timeoutMs`). */
  idle(timeoutMs = 15_000): Promise<void> {
    if (this.pending() === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Delivers at once, outside the queue: the test helpers' resend and ordered delivery. */
  send(event: Stripe.EventBase, url: string, reason: 'resend' | 'ordered'): Promise<Delivery> {
    return this.post({ event, url, secret: this.secret, attempt: 1 }, reason);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
    await this.pumping;
    this.notifyIdle();
  }

  private pump(): void {
    if (this.pumping || this.held) return;
    this.pumping = (async () => {
      while (this.queue.length > 0 && !this.stopped && !this.held) {
        const job = this.queue.shift()!;
        const delivery = await this.post(job, job.attempt === 1 ? 'event' : 'retry');
        if (!delivery.ok) this.scheduleRetry(job);
      }
    })().finally(() => {
      this.pumping = null;
      if (this.queue.length > 0 && !this.stopped && !this.held) this.pump();
      else this.notifyIdle();
    });
  }

  private scheduleRetry(job: Job): void {
    const delay = RETRY_DELAYS_MS[job.attempt - 1];
    if (delay === undefined || this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.queue.push({ ...job, attempt: job.attempt + 1 });
      this.pump();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  private notifyIdle(): void {
    if (this.pending() > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async post(job: Job, reason: Delivery['reason']): Promise<Delivery> {
    // Stripe sends the event pretty-printed; the signature covers these exact bytes.
    const payload = JSON.stringify(job.event, null, 2);
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(job.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(payload, job.secret),
        },
        body: payload,
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const ok = status !== null && status >= 200 && status < 300;
    if (ok && reason !== 'resend' && reason !== 'ordered') {
      job.event.pending_webhooks = Math.max(0, job.event.pending_webhooks - 1);
    }
    const delivery: Delivery = {
      id: newId('whdel'),
      event: job.event.id,
      type: job.event.type,
      url: job.url,
      attempt: job.attempt,
      reason,
      status,
      ok,
      error,
      started_at: started,
      finished_at: Date.now(),
    };
    this.deliveries.push(delivery);
    return delivery;
  }
}
