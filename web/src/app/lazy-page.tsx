import { type ComponentType, lazy } from 'react';
import { trackPageLoad } from '../ui/page-loads.ts';

/** A page component loaded on first use, which can also be loaded ahead (`preload`). */
export interface LazyPage<P extends object> {
  (props: P): React.ReactNode;
  preload(): Promise<void>;
}

/**
 * A lazily loaded page that stops being lazy once its module is here. React.lazy suspends on its
 * first render even when the module was fetched ahead, and React 19 holds a revealed Suspense boundary
 * back for up to 300 ms; a page preloaded before it is shown (at sign-in submit, or at start for the
 * address being opened) renders at once instead.
 */
export function lazyPage<M extends Record<string, unknown>, P extends object = object>(
  load: () => Promise<M>,
  name: keyof M & string,
): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () => {
    loading ??= load().then(
      (m) => {
        loaded = m[name] as ComponentType<P>;
      },
      (error: unknown) => {
        // A failed fetch (a deploy replaced the chunk, the network dropped) may be tried again.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  // Only a page waiting to be shown counts for the progress bar, not one fetched ahead.
  const Lazy = lazy(() => trackPageLoad(preload()).then(() => ({ default: loaded as ComponentType<P> })));
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called once per page at module level, like React.lazy itself
  const Page = (props: P) => {
    const Component = loaded;
    return Component ? <Component {...props} /> : <Lazy {...props} />;
  };
  Page.preload = preload;
  return Page;
}
