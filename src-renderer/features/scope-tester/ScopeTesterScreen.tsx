import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { adminAccountQuery } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { rolesQuery } from '../../api/roles';
import { scopeSchemaQuery } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { NavigateOptions, Route } from '../../routing/route';
import type { ScopeTesterRoute } from './tester-route';
import { RoleChecks } from '../../components/RoleChecks';
import { BatchPanel } from './BatchPanel';
import { decodeTokenScope, evaluateBatch } from './batch';
import { ChainChecks } from '../../components/ChainMark';
import { ChainParser } from './ChainParser';
import { splitChains } from '../../components/chain-segments';
import { EffectiveChains, sourceChains } from './EffectiveChains';
import { TestCasesPanel } from './TestCasesPanel';
import '../../styles/access.css';

interface ScopeTesterScreenProps {
  orgClient: OrgClient;
  route: ScopeTesterRoute;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

/** Parse chains, then decide a batch of requests against chains + roles or a pasted token. */
export function ScopeTesterScreen({ orgClient, route, navigate }: ScopeTesterScreenProps) {
  const roles = useQuery(rolesQuery(orgClient));
  // The org's object types: typed chains naming what the org lacks are marked as the service refuses them.
  const types = useQuery(scopeSchemaQuery(orgClient)).data;
  // A pasted token is a credential: component state only, never the URL or storage.
  const [tokenText, setTokenText] = useState('');
  const edit = (next: Partial<ScopeTesterRoute>) => navigate({ ...route, ...next }, { replace: true });

  const decoded = useMemo(
    () => (route.source === 'token' ? decodeTokenScope(tokenText) : null),
    [route.source, tokenText],
  );
  const subject =
    decoded?.ok && decoded.token.subject && /^[0-9a-f]{24}$/i.test(decoded.token.subject)
      ? decoded.token.subject
      : null;
  const subjectAccount = useQuery({ ...adminAccountQuery(orgClient, subject ?? ''), enabled: subject !== null });

  const typedChains = useMemo(() => splitChains(route.chains), [route.chains]);
  const source = useMemo(
    () => sourceChains(route, typedChains, roles.data ?? [], decoded, subjectAccount.data?.roles ?? []),
    [route, typedChains, roles.data, decoded, subjectAccount.data],
  );
  const chains = useMemo(() => [...new Set(source.chains.map((entry) => entry.chain))], [source]);
  const results = useMemo(() => evaluateBatch(chains, route.rows), [chains, route.rows]);

  return (
    <section className="screen screen--scroll" aria-labelledby="tester-title">
      <ScreenHeader
        title="Scope tester"
        titleId="tester-title"
        description={
          <>
            Parse scope chains and decide requests with the very parser, schema rule and matcher the service enforces.
          </>
        }
      />
      <ChainParser chain={route.chain} types={types} onChange={(chain) => edit({ chain })} />

      <div className="panel" data-testid="tester-source">
        <div className="access-toolbar">
          <p className="panel__title">Test requests against</p>
          <div className="segmented" role="radiogroup" aria-label="Scope source">
            {(['chains', 'token'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={route.source === value}
                className={route.source === value ? 'segmented__item segmented__item--on' : 'segmented__item'}
                data-testid={`tester-source-${value}`}
                onClick={() => edit({ source: value })}
              >
                {value === 'chains' ? 'Chains and roles' : 'A token (JWT)'}
              </button>
            ))}
          </div>
        </div>
        {route.source === 'chains' ? (
          <div className="tester-grid">
            <Field label="Scope chains (one per line)">
              {(id) => (
                <>
                  <textarea
                    id={id}
                    className="input input--mono"
                    data-testid="tester-chains"
                    spellCheck={false}
                    value={route.chains}
                    onChange={(e) => edit({ chains: e.target.value })}
                  />
                  <ChainChecks chains={typedChains} testId="tester-chain-check" types={types} />
                </>
              )}
            </Field>
            <RoleChecks
              legend="Plus the scopes of roles"
              roles={roles}
              selected={route.roles}
              testPrefix="tester-role"
              onChange={(next) => edit({ roles: next })}
            />
          </div>
        ) : (
          <Field
            label="Token (kept on this page only)"
            error={decoded && !decoded.ok && tokenText.trim() !== '' ? decoded.problem : undefined}
            errorTestId="tester-token-error"
          >
            {(id) => (
              <>
                <textarea
                  id={id}
                  className="input input--mono"
                  data-testid="tester-token"
                  spellCheck={false}
                  autoComplete="off"
                  value={tokenText}
                  onChange={(e) => setTokenText(e.target.value)}
                />
                {decoded?.ok && (
                  <p className="note" data-testid="tester-token-claims">
                    subject <code>{decoded.token.subject ?? '—'}</code> · {decoded.token.scopes.length} chains in{' '}
                    <code>service/scp</code> · {decoded.token.roles.length} roles in <code>service/rls</code>
                    {decoded.token.expires !== undefined &&
                      ` · expires ${new Date(decoded.token.expires * 1000).toISOString()}`}
                  </p>
                )}
                {subjectAccount.isError && <FaultMessage fault={faultOf(subjectAccount.error)} compact />}
              </>
            )}
          </Field>
        )}
        <EffectiveChains source={source.chains} notes={source.notes} roles={roles} />
      </div>

      <BatchPanel
        orgClient={orgClient}
        route={route}
        chains={chains}
        results={results}
        tokenScope={
          route.source === 'token'
            ? decoded?.ok
              ? { scope: decoded.token.scopes, roles: decoded.token.roles }
              : null
            : { scope: typedChains, roles: route.roles }
        }
        onRows={(rows) => edit({ rows })}
      />

      <TestCasesPanel
        org={orgClient.org}
        route={route}
        roles={roles.data ?? []}
        currentChains={route.source === 'token' && decoded?.ok ? decoded.token.scopes : typedChains}
        currentRoles={route.source === 'token' && decoded?.ok ? decoded.token.roles : route.roles}
        onLoad={(loaded) => navigate({ ...route, ...loaded })}
      />
    </section>
  );
}
