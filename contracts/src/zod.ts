import { config, z } from 'zod';

// Every schema of the contracts is built with this zod. Zod compiles object parsers with `new Function`
// where it may, and finds out by trying once, as the first schema is defined; in the browser our
// Content-Security-Policy forbids eval, so that probe was reported as a violation on every page. The
// interpreted parser is fast enough for requests, answers and forms, so the contracts never ask. This
// module must be the only import of zod's `z` in contracts, so the setting precedes every schema.
config({ jitless: true });

export { z };
