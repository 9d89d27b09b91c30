import {
  Button,
  Callout,
  Card,
  Classes,
  Collapse,
  H2,
  H3,
  H4,
  H5,
  HTMLTable,
  Intent,
  SegmentedControl,
  Tab,
  Tabs,
  Tag,
} from '@blueprintjs/core';
import { API_TEXTS } from '@mrn/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/api-error.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { canUseMerchantSubscriptions } from '../../auth/permissions.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import {
  answerExample,
  baseAddress,
  codeSpans,
  curlSnippet,
  describeSchema,
  type Endpoint,
  type Environment,
  errorExampleOf,
  fetchSnippet,
  type GuideDocument,
  groupByTag,
  OPENAPI_DOCUMENT_PATH,
  parameterExample,
  rateLimitHeadersOf,
  refusalsOf,
  requestExample,
  SANDBOX_CREDENTIAL_PREFIX,
} from './openapi-guide.ts';
import { WebhookGuide } from './WebhookGuide.tsx';
import './developers.css';

const SUBSCRIPTIONS_TAG = 'Merchant subscriptions';
const SANDBOX_EIN = '01-0000001';
/** The EIN of the production examples (the contracts' examples): made up, not a real merchant. */
const EXAMPLE_EIN = '12-3456789';

const UNAVAILABLE = 'The API reference could not be loaded.';

/** Not a route of the table (the document describes them): a plain fetch, failures as ApiError. */
async function fetchDocument({ signal }: { signal: AbortSignal }): Promise<GuideDocument> {
  let response: Response;
  try {
    response = await fetch(OPENAPI_DOCUMENT_PATH, { headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(0, `${UNAVAILABLE} Check your connection.`);
  }
  if (!response.ok) throw new ApiError(response.status, `${UNAVAILABLE} (HTTP ${response.status})`);
  return (await response.json()) as GuideDocument;
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** A description whose `backticked` words are code. */
function RichText({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
        part.code ? <code key={i}>{part.text}</code> : <span key={i}>{part.text}</span>,
      )}
    </>
  );
}

/** A block of code with a copy button. */
function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="mrn-code-block">
      <div className="mrn-code-bar">
        <CopyButton text={code} label={label} />
      </div>
      <pre className="mrn-code">{code}</pre>
    </div>
  );
}

function ParametersTable({ endpoint, environment }: { endpoint: Endpoint; environment: Environment }) {
  return (
    <div className="mrn-table-scroll">
      <HTMLTable compact className="mrn-params-table">
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Example</th>
          </tr>
        </thead>
        <tbody>
          {endpoint.parameters.map((p) => {
            const example = parameterExample(endpoint, p, environment);
            return (
              <tr key={`${p.in}-${p.name}`}>
                <td>
                  <code>{p.name}</code>
                  {p.required ? <span className={Classes.TEXT_MUTED}> (required)</span> : null}
                  {p.description ? <div className="mrn-param-note">{p.description}</div> : null}
                </td>
                <td className="mrn-nowrap">{p.in}</td>
                <td>{describeSchema(p.schema)}</td>
                <td>{example === undefined ? '' : <code>{String(example)}</code>}</td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}

function EndpointCard({
  endpoint,
  base,
  environment,
  open,
  onToggle,
}: {
  endpoint: Endpoint;
  base: string;
  environment: Environment;
  open: boolean;
  onToggle: () => void;
}) {
  const [snippet, setSnippet] = useState<'curl' | 'js'>('curl');
  const panelId = `endpoint-${endpoint.id}`;
  const body = requestExample(endpoint, environment);
  const answer = answerExample(endpoint, environment);
  const curl = curlSnippet(endpoint, base, environment);
  const js = fetchSnippet(endpoint, base, environment);
  return (
    <Card elevation={1} className="mrn-endpoint" data-endpoint={endpoint.id}>
      <div className="mrn-endpoint-head">
        <Tag intent={endpoint.method === 'GET' ? Intent.SUCCESS : Intent.PRIMARY} className="mrn-method">
          {endpoint.method}
        </Tag>
        <code className="mrn-endpoint-path">{endpoint.path}</code>
        {endpoint.plan ? (
          <Tag minimal intent={Intent.WARNING} title={`${endpoint.plan} accounts only`}>
            {endpoint.plan}
          </Tag>
        ) : null}
        <Button
          variant="minimal"
          size="small"
          endIcon={open ? 'chevron-up' : 'chevron-down'}
          text={open ? 'Hide' : 'Show'}
          aria-label={`${open ? 'Hide' : 'Show'} ${endpoint.summary}`}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
        />
      </div>
      <H4 className="mrn-endpoint-title">{endpoint.summary}</H4>
      <Collapse isOpen={open}>
        <div id={panelId} className="mrn-endpoint-body">
          {endpoint.description ? (
            <p className={Classes.RUNNING_TEXT}>
              <RichText text={endpoint.description} />
            </p>
          ) : null}
          {endpoint.parameters.length > 0 ? (
            <>
              <H5>Parameters</H5>
              <ParametersTable endpoint={endpoint} environment={environment} />
            </>
          ) : null}
          {body !== undefined ? (
            <>
              <H5>Request body</H5>
              <CodeBlock code={pretty(body)} label={`Copy the request body of ${endpoint.summary}`} />
            </>
          ) : null}
          {endpoint.answer && answer !== undefined ? (
            <>
              <H5>
                Answer <Tag minimal>{endpoint.answer.status}</Tag>
              </H5>
              <pre className="mrn-code mrn-answer">{pretty(answer)}</pre>
            </>
          ) : null}
          <H5>Try it</H5>
          <Tabs
            id={`snippets-${endpoint.id}`}
            selectedTabId={snippet}
            onChange={(next) => setSnippet(next === 'js' ? 'js' : 'curl')}
            renderActiveTabPanelOnly
            animate={false}
          >
            <Tab
              id="curl"
              title="curl"
              panel={<CodeBlock code={curl} label={`Copy the curl command of ${endpoint.summary}`} />}
            />
            <Tab
              id="js"
              title="JavaScript"
              panel={<CodeBlock code={js} label={`Copy the JavaScript of ${endpoint.summary}`} />}
            />
          </Tabs>
        </div>
      </Collapse>
    </Card>
  );
}

function Reference({
  doc,
  base,
  environment,
  hiddenTags,
}: {
  doc: GuideDocument;
  base: string;
  environment: Environment;
  hiddenTags: ReadonlySet<string>;
}) {
  const groups = groupByTag(doc, hiddenTags);
  const ids = groups.flatMap((g) => g.endpoints.map((e) => e.id));
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const allOpen = ids.length > 0 && ids.every((id) => open.has(id));
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const limits = doc['x-rate-limits'];
  const errorExample = errorExampleOf(doc);
  return (
    <>
      <section className="mrn-endpoints" aria-labelledby="endpoints-title">
        <div className="mrn-card-title-row">
          <H3 id="endpoints-title">Endpoints</H3>
          <Button
            variant="minimal"
            icon={allOpen ? 'collapse-all' : 'expand-all'}
            text={allOpen ? 'Hide all' : 'Show all'}
            onClick={() => setOpen(allOpen ? new Set() : new Set(ids))}
          />
        </div>
        {groups.map((group) => (
          <section key={group.tag} className="mrn-endpoint-group" aria-label={group.tag}>
            <H4>{group.tag}</H4>
            {group.description ? <p className={Classes.TEXT_MUTED}>{group.description}</p> : null}
            {group.endpoints.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                base={base}
                environment={environment}
                open={open.has(endpoint.id)}
                onToggle={() => toggle(endpoint.id)}
              />
            ))}
          </section>
        ))}
      </section>
      <Card elevation={1} id="answers">
        <H3>Answers and errors</H3>
        <p className={Classes.RUNNING_TEXT}>
          Every answer is JSON <code>{'{ errors, data }'}</code>. On success <code>errors</code> is empty. On
          a refusal <code>data</code> is null and <code>errors</code> lists each problem with the request
          field it concerns (<code>field</code> is null when it concerns the request as a whole). Answers may
          gain fields over time: ignore those you do not know.
        </p>
        {errorExample !== undefined ? <pre className="mrn-code">{pretty(errorExample)}</pre> : null}
        <div className="mrn-table-scroll">
          <HTMLTable compact className="mrn-params-table mrn-code-top">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              {refusalsOf(doc).map((r) => (
                <tr key={r.status}>
                  <td>
                    <code>{r.status}</code>
                  </td>
                  <td>{r.description}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      </Card>
      <Card elevation={1} id="rate-limits">
        <H3>Rate limits</H3>
        {limits ? (
          <ul className={Classes.LIST}>
            <li>
              {limits.perApiKeyPerMinute.toLocaleString('en-US')} calls a minute for each API user (all of its
              tokens together); calls without a valid token count by IP address.
            </li>
            <li>
              {limits.tokenPerMinute.toLocaleString('en-US')} calls a minute to{' '}
              <code>POST /api/v2/token</code> from one IP address.
            </li>
          </ul>
        ) : null}
        <p className={Classes.RUNNING_TEXT}>
          Every answer says where you stand. A call over the limit answers <code>429</code> with{' '}
          <code>Retry-After</code>: wait that many seconds before calling again, rather than retrying at once.
        </p>
        <div className="mrn-table-scroll">
          <HTMLTable compact className="mrn-params-table">
            <thead>
              <tr>
                <th scope="col">Header</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              {rateLimitHeadersOf(doc).map((h) => (
                <tr key={h.name}>
                  <td>
                    <code>{h.name}</code>
                  </td>
                  <td>{h.description}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
        <pre className="mrn-code mrn-code-top">
          {`HTTP/1.1 429 Too Many Requests\nRetry-After: 12\n\n${pretty({
            errors: [{ field: null, message: API_TEXTS.rateLimited(12) }],
            data: null,
          })}`}
        </pre>
      </Card>
    </>
  );
}

/**
 * /developers: the partner API v2 guide (accounts §2, §7), rendered from the OpenAPI document the
 * server publishes, so the endpoints, examples and limits shown are the ones the server has. The
 * subscription calls are listed for accounts that can make them; the webhook guide (event types,
 * payloads, signatures) is for every visitor, signed in or not (issue 32), with what it takes to get
 * webhooks for those whose account does not have them.
 */
export function DevelopersPage() {
  useDocumentTitle('Developers');
  const { state } = useAuth();
  const [environment, setEnvironment] = useState<Environment>('production');
  const user = state.status === 'signed-in' ? state.user : null;
  const showSubscriptions = user !== null && (canUseMerchantSubscriptions(user) || user.is_dm_admin);
  const base = baseAddress(window.location.origin, environment);
  const reference = useQuery({
    queryKey: ['partner-api', 'openapi'],
    queryFn: fetchDocument,
    // Changes only with a new release of the server.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const hiddenTags = new Set(showSubscriptions ? [] : [SUBSCRIPTIONS_TAG]);

  return (
    <article className="mrn-page mrn-narrow-page mrn-developers">
      <header className="mrn-page-header">
        <H2>Developer Guide</H2>
        <p className={Classes.TEXT_MUTED}>
          The {PRODUCT_NAME} partner REST API, version 2: search and report merchants from your own systems.
          Its OpenAPI 3.1 description is at <a href={OPENAPI_DOCUMENT_PATH}>{OPENAPI_DOCUMENT_PATH}</a>, for
          client generators and API tools.
        </p>
      </header>
      <Card elevation={1} id="environment">
        <div className="mrn-card-title-row">
          <H3>Environment</H3>
          <SegmentedControl
            aria-label="Environment"
            options={[
              { label: 'Production', value: 'production' },
              { label: 'Sandbox', value: 'sandbox' },
            ]}
            value={environment}
            onValueChange={(value) => setEnvironment(value === 'sandbox' ? 'sandbox' : 'production')}
            intent={Intent.PRIMARY}
          />
        </div>
        <dl className="mrn-facts">
          <div className="mrn-fact">
            <dt>Base address</dt>
            <dd className="mrn-base-address">
              <code data-testid="base-address">{base}</code>
              <CopyButton text={base} label="Copy the base address" />
            </dd>
          </div>
          <div className="mrn-fact">
            <dt>Credentials</dt>
            <dd>
              {environment === 'production' ? (
                'Your authentication token and key'
              ) : (
                <>
                  Your token and key, each prefixed with <code>{SANDBOX_CREDENTIAL_PREFIX}</code>
                </>
              )}
            </dd>
          </div>
        </dl>
        {environment === 'sandbox' ? (
          <Callout intent={Intent.PRIMARY} icon="lab-test" className="mrn-callout-top">
            The sandbox never touches production data. It is reset every week; its only merchant has EIN{' '}
            <code>{SANDBOX_EIN}</code> (<code>{SANDBOX_EIN.replace('-', '')}</code>). The examples below use
            the sandbox address, <code>{SANDBOX_CREDENTIAL_PREFIX}</code> credentials and that merchant.
          </Callout>
        ) : (
          <Callout icon="key" className="mrn-callout-top">
            An account administrator issues your API credentials on the Account page, once a platform
            administrator has granted your account API access. The examples below use a made-up EIN,{' '}
            <code>{EXAMPLE_EIN}</code>: put in the EIN of a merchant you are looking at.
          </Callout>
        )}
      </Card>
      <Card elevation={1} id="authentication">
        <H3>Authentication</H3>
        <ol className={`${Classes.LIST} ${Classes.RUNNING_TEXT}`}>
          <li>
            Call <code>POST {base}/api/v2/token</code> with your authentication token and key (body{' '}
            <code>{'{ "auth": { "authentication_token", "authentication_key" } }'}</code>). The answer's{' '}
            <code>data.token</code> is your API token.
          </li>
          <li>
            Send it on every other call as <code>Authorization: Bearer &lt;API token&gt;</code>.
          </li>
          <li>
            Tokens last 24 hours. A call answered <code>401</code> needs a new token; revoking your API access
            ends your tokens at once. Dashboard sign-ins do not work here, nor API tokens on the dashboard.
          </li>
        </ol>
        <p className={Classes.RUNNING_TEXT}>
          Merchants are identified by a 9-digit EIN; a hyphen after the second digit is accepted.
        </p>
      </Card>
      {reference.isPending ? (
        <PageSpinner label="Loading the API reference" />
      ) : reference.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert" title="The API reference is unavailable">
          <p>{reference.error.message}</p>
          <Button text="Try again" icon="refresh" onClick={() => void reference.refetch()} />
        </Callout>
      ) : (
        <Reference doc={reference.data} base={base} environment={environment} hiddenTags={hiddenTags} />
      )}
      {!showSubscriptions && (
        <Callout
          intent={Intent.PRIMARY}
          icon="notifications"
          title="Webhooks come with merchant subscriptions"
        >
          <p className={Classes.RUNNING_TEXT}>
            Merchant subscriptions are a PRO feature, turned on for each account by {PRODUCT_NAME}’s platform
            administrators. This is what your systems would receive: the event types, their payloads and how
            to verify them. <Link to={PATHS.pro}>What PRO includes</Link>
          </p>
        </Callout>
      )}
      <WebhookGuide />
    </article>
  );
}
