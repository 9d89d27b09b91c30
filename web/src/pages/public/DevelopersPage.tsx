import {
  Button,
  Callout,
  Card,
  Classes,
  Collapse,
  H2,
  H3,
  H4,
  Intent,
  SegmentedControl,
  Tag,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useAuth } from '../../auth/auth-context.ts';
import { canUseMerchantSubscriptions } from '../../auth/permissions.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { curlExample, ENDPOINTS, type Endpoint, type Environment } from './developer-endpoints.ts';
import { WebhookGuide } from './WebhookGuide.tsx';

function EndpointCard({
  endpoint,
  baseUrl,
  environment,
}: {
  endpoint: Endpoint;
  baseUrl: string;
  environment: Environment;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `endpoint-${endpoint.id}`;
  return (
    <Card elevation={1} className="mrn-endpoint">
      <div className="mrn-endpoint-head">
        <Tag intent={endpoint.method === 'GET' ? Intent.SUCCESS : Intent.PRIMARY} className="mrn-method">
          {endpoint.method}
        </Tag>
        <code className="mrn-endpoint-path">{endpoint.path}</code>
        <Button
          variant="minimal"
          size="small"
          endIcon={open ? 'chevron-up' : 'chevron-down'}
          text={open ? 'Hide' : 'Show'}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        />
      </div>
      <H4 className="mrn-endpoint-title">{endpoint.title}</H4>
      <Collapse isOpen={open}>
        <div id={panelId}>
          <p>{endpoint.description}</p>
          <pre className="mrn-code">{curlExample(endpoint, baseUrl, environment)}</pre>
        </div>
      </Collapse>
    </Card>
  );
}

/** /developers: the partner API v2 guide with production and sandbox addresses (accounts §2, §7). */
export function DevelopersPage() {
  useDocumentTitle('Developers');
  const { state } = useAuth();
  const [environment, setEnvironment] = useState<Environment>('production');
  const user = state.status === 'signed-in' ? state.user : null;
  const showSubscriptions = user !== null && (canUseMerchantSubscriptions(user) || user.is_dm_admin);
  const baseUrl = window.location.origin;
  const endpoints = ENDPOINTS.filter((e) => showSubscriptions || !e.subscriptions);

  return (
    <article className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Developer Guide</H2>
        <p className={Classes.TEXT_MUTED}>
          The {PRODUCT_NAME} partner REST API, version 2: search and report merchants from your own systems.
        </p>
      </header>
      <Card elevation={1}>
        <div className="mrn-card-title-row">
          <H3>Environment</H3>
          <SegmentedControl
            options={[
              { label: 'Production', value: 'production' },
              { label: 'Sandbox', value: 'sandbox' },
            ]}
            value={environment}
            onValueChange={(value) => setEnvironment(value as Environment)}
            intent={Intent.PRIMARY}
          />
        </div>
        <dl className="mrn-facts">
          <div className="mrn-fact">
            <dt>Base address</dt>
            <dd>
              <code>{baseUrl}</code>
            </dd>
          </div>
          <div className="mrn-fact">
            <dt>Credentials</dt>
            <dd>
              {environment === 'production'
                ? 'Your authentication token and key'
                : 'Your token and key, each prefixed with test_'}
            </dd>
          </div>
        </dl>
        {environment === 'sandbox' ? (
          <Callout intent={Intent.PRIMARY} icon="lab-test" className="mrn-callout-top">
            The sandbox never touches production data. It is reset every week; its only merchant has EIN{' '}
            <code>01-0000001</code> (<code>010000001</code>).
          </Callout>
        ) : (
          <Callout icon="key" className="mrn-callout-top">
            An account administrator issues your API credentials on the Account page, once a platform
            administrator has granted your account API access.
          </Callout>
        )}
      </Card>
      <Card elevation={1}>
        <H3>Authentication</H3>
        <p className={Classes.RUNNING_TEXT}>
          Call <code>POST /api/v2/token</code> with your credentials to get an API token, then send it in the{' '}
          <code>Authorization</code> header. Tokens last 24 hours. Merchants are identified by a 9-digit EIN
          (hyphen optional).
        </p>
      </Card>
      <H3>Endpoints</H3>
      {endpoints.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} baseUrl={baseUrl} environment={environment} />
      ))}
      {showSubscriptions && <WebhookGuide />}
    </article>
  );
}
