import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig: the event store', () => {
  it('uses PostgreSQL by default, with or without EVENTSTORE_URL', () => {
    expect(loadConfig({}).EVENT_STORE).toBe('postgres');
    expect(loadConfig({ EVENT_STORE: '' }).EVENT_STORE).toBe('postgres');
    const contractOnly = loadConfig({ EVENTSTORE_URL: 'kurrentdb://localhost:2113?tls=false' });
    expect(contractOnly.EVENT_STORE).toBe('postgres');
    expect(contractOnly.EVENTSTORE_URL).toBe('kurrentdb://localhost:2113?tls=false');
  });

  it('takes KurrentDB with its connection string', () => {
    const config = loadConfig({
      EVENT_STORE: ' KurrentDB ',
      EVENTSTORE_URL: 'kurrentdb+discover://node1:2113,node2:2113?tls=true',
    });
    expect(config.EVENT_STORE).toBe('kurrentdb');
    expect(config.EVENTSTORE_URL).toBe('kurrentdb+discover://node1:2113,node2:2113?tls=true');
    expect(loadConfig({ EVENT_STORE: 'kurrentdb', EVENTSTORE_URL: 'esdb://h:2113' }).EVENTSTORE_URL).toBe(
      'esdb://h:2113',
    );
  });

  it('refuses EVENT_STORE=kurrentdb without EVENTSTORE_URL, naming the variable', () => {
    for (const missing of [{}, { EVENTSTORE_URL: '' }, { EVENTSTORE_URL: '   ' }])
      expect(() => loadConfig({ EVENT_STORE: 'kurrentdb', ...missing })).toThrow(
        /Invalid configuration: EVENTSTORE_URL: is required when EVENT_STORE=kurrentdb/,
      );
  });

  it('refuses an unknown store and a URL that is not a KurrentDB connection string', () => {
    expect(() => loadConfig({ EVENT_STORE: 'eventstoredb' })).toThrow(/EVENT_STORE/);
    expect(() =>
      loadConfig({ EVENT_STORE: 'kurrentdb', EVENTSTORE_URL: 'postgres://localhost/mrn' }),
    ).toThrow(/EVENTSTORE_URL: must be a KurrentDB connection string/);
  });
});

describe('loadConfig: whose X-Forwarded-For is believed (issue 30, item 3)', () => {
  it('no one by default; the proxies named, as addresses or ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).TRUST_PROXY).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: ' 172.30.0.10, 10.0.1.0/24 ,::1' }).TRUST_PROXY).toEqual([
      '172.30.0.10',
      '10.0.1.0/24',
      '::1',
    ]);
  });

  it('refuses "true" (any client could choose its address) and what is not an address', () => {
    for (const everyone of ['true', 'TRUE', '1'])
      expect(() => loadConfig({ TRUST_PROXY: everyone })).toThrow(/TRUST_PROXY: names the proxies to trust/);
    expect(() => loadConfig({ TRUST_PROXY: 'gateway' })).toThrow(/TRUST_PROXY: "gateway" is not an address/);
  });
});
