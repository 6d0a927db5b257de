import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { adminAccountQuery } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { resolveRoleScopes, rolesQuery, type Role } from '../../api/roles';
import { schemasQuery, scopeSchemaQuery } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { NavigateOptions, Route } from '../../routing/route';
import type { ScopeTesterRoute } from './tester-route';
import { RoleChecks } from '../../components/RoleChecks';
import { BatchTable } from './BatchTable';
import { decodeTokenScope, evaluateBatch, type TestRow } from './batch';
import { ChainChecks } from '../../components/ChainMark';
import { ChainParser } from './ChainParser';
import { splitChains } from '../../components/chain-segments';
import { askService, mintTesterToken, serviceRequestFor, tokenScopes, type ServiceAnswer } from './service-check';
import { TestCasesPanel } from './TestCasesPanel';
import '../../styles/access.css';

interface ScopeTesterScreenProps {
  orgClient: OrgClient;
  route: ScopeTesterRoute;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

/** Where an effective chain came from, for the list under the source. */
export interface SourcedChain {
  chain: string;
  from: string;
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
            The same parser, schema rule and matcher the service enforces (<code>src-shared/scopes</code>).
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

function sourceChains(
  route: ScopeTesterRoute,
  typed: string[],
  roles: Role[],
  decoded: ReturnType<typeof decodeTokenScope> | null,
  subjectRoles: string[],
): { chains: SourcedChain[]; notes: string[] } {
  const notes: string[] = [];
  if (route.source === 'chains') {
    const own = typed.map((chain) => ({ chain, from: 'typed' }));
    const fromRoles = resolveRoleScopes(roles, route.roles).scopes.map((entry) => ({
      chain: entry.chain,
      from: `role ${entry.role.name}`,
    }));
    return { chains: [...own, ...fromRoles], notes };
  }
  if (!decoded?.ok) return { chains: [], notes };
  const own = decoded.token.scopes.map((chain) => ({ chain, from: 'service/scp' }));
  const fromRoles = resolveRoleScopes(roles, [...decoded.token.roles, ...subjectRoles]).scopes.map((entry) => ({
    chain: entry.chain,
    from: `role ${entry.role.name}`,
  }));
  if (decoded.token.subject) notes.push("The subject's own roles are included, as the service does.");
  return { chains: [...own, ...fromRoles], notes };
}

function EffectiveChains({
  source,
  notes,
  roles,
}: {
  source: SourcedChain[];
  notes: string[];
  roles: UseQueryResult<Role[]>;
}) {
  return (
    <div className="panel__section" data-testid="tester-effective">
      <p className="panel__heading">Effective chains ({source.length})</p>
      {roles.isError && <FaultMessage fault={faultOf(roles.error)} onRetry={() => void roles.refetch()} compact />}
      {source.length === 0 ? (
        <p className="note" data-testid="tester-effective-empty">
          No chains: every request is denied (decisions.md §7).
        </p>
      ) : (
        <ul className="chain-list">
          {source.map((entry, index) => (
            <li key={`${index}-${entry.chain}`}>
              <code>{entry.chain}</code> <span className="note">— {entry.from}</span>
            </li>
          ))}
        </ul>
      )}
      {notes.map((note) => (
        <p key={note} className="note">
          {note}
        </p>
      ))}
    </div>
  );
}

function BatchPanel({
  orgClient,
  route,
  chains,
  results,
  tokenScope,
  onRows,
}: {
  orgClient: OrgClient;
  route: ScopeTesterRoute;
  chains: string[];
  results: ReturnType<typeof evaluateBatch>;
  tokenScope: { scope: string[]; roles: string[] } | null;
  onRows: (rows: TestRow[]) => void;
}) {
  const schemas = useQuery(schemasQuery(orgClient));
  const [answers, setAnswers] = useState<{ key: string; list: ServiceAnswer[] } | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkFault, setCheckFault] = useState<ReturnType<typeof faultOf> | null>(null);
  // Answers belong to the exact rows and chains they were asked with; any edit clears them.
  const answerKey = JSON.stringify([route.rows, chains, tokenScope]);
  const shownAnswers = answers?.key === answerKey ? answers.list : undefined;

  const check = async () => {
    if (!tokenScope || !schemas.data) return;
    setChecking(true);
    setCheckFault(null);
    try {
      const jwt = await mintTesterToken(orgClient, tokenScopes(tokenScope.scope), tokenScope.roles);
      const collectionOf = (name: string) => schemas.data.find((schema) => schema.name === name)?.collection;
      const list: ServiceAnswer[] = [];
      for (const row of route.rows) {
        const planned = serviceRequestFor(row, collectionOf);
        list.push(
          planned.ok
            ? await askService(orgClient.org, jwt, row, planned.request)
            : { verdict: 'skipped', detail: planned.reason },
        );
      }
      setAnswers({ key: answerKey, list });
    } catch (error) {
      setCheckFault(faultOf(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="panel" data-testid="tester-batch">
      <div className="access-toolbar">
        <p className="panel__title">Requests</p>
        <span className="query-panel__spacer" />
        <button
          type="button"
          className="button button--secondary"
          data-testid="tester-accept-expected"
          disabled={route.rows.length === 0}
          title="Record the current verdicts as the expected ones"
          onClick={() =>
            onRows(
              route.rows.map((row, index) => {
                const verdict = results[index]?.verdict;
                return verdict ? { ...row, expected: verdict } : row;
              }),
            )
          }
        >
          Expect current verdicts
        </button>
        <button
          type="button"
          className="button button--primary"
          data-testid="tester-check-service"
          disabled={checking || route.rows.length === 0 || !tokenScope || !schemas.data}
          onClick={() => void check()}
        >
          {checking ? 'Asking the service…' : 'Check against the service'}
        </button>
      </div>
      <p className="note">
        Checking mints a short-lived token for you with these chains (roles via <code>roles</code>) and sends reads and
        an empty <code>PATCH</code> with it; creates and deletes are never sent.
      </p>
      {checkFault && <FaultMessage fault={checkFault} compact />}
      {schemas.isError && (
        <FaultMessage fault={faultOf(schemas.error)} onRetry={() => void schemas.refetch()} compact />
      )}
      <BatchTable rows={route.rows} results={results} answers={shownAnswers} onRows={onRows} />
    </div>
  );
}
