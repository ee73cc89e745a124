import { lazy, Suspense } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { SessionProvider, useMe, useSession } from './api/session';
import { errorText } from './api/http';
import { FleetProvider } from './fleet/fleet-context';
import { Layout } from './components/layout';
import { StepUpDialog } from './components/step-up-dialog';
import { SignInPage } from './pages/sign-in';
import { AgentsPage } from './pages/agents';
import { AgentPage } from './pages/agent';
import { AlertsPage } from './pages/alerts';
import { DeploymentsPage } from './pages/deployments';
import { ScriptsPage } from './pages/scripts';
import { ClientsPage } from './pages/clients';

// Pages only some operators open are separate chunks; the script editor's page loads CodeMirror on its own.
const ScriptPage = lazy(() => import('./pages/script'));
const NotificationsPage = lazy(() => import('./pages/notifications'));
const ApiKeysPage = lazy(() => import('./pages/api-keys'));
const OperatorsPage = lazy(() => import('./pages/operators'));
const AuditPage = lazy(() => import('./pages/audit'));
const PoliciesPage = lazy(() => import('./pages/policies'));
const CustomFieldsPage = lazy(() => import('./pages/custom-fields'));
const AccountPage = lazy(() => import('./pages/account'));

export function App() {
  const me = useMe();
  if (me.isPending) {
    return (
      <main className="container centered" aria-busy="true">
        Loading…
      </main>
    );
  }
  if (me.isError) {
    return (
      <main className="container centered">
        <p role="alert">{errorText(me.error)}</p>
        <button onClick={() => void me.refetch()}>Try again</button>
      </main>
    );
  }
  if (!me.data) return <SignInPage />;
  return (
    <SessionProvider operator={me.data}>
      <FleetProvider operatorId={me.data.id}>
        <Router base="/app">
          <Layout>
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <Routes />
            </Suspense>
          </Layout>
          <StepUpDialog />
        </Router>
      </FleetProvider>
    </SessionProvider>
  );
}

function Routes() {
  const { isAdmin, can } = useSession();
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/agents" replace />
      </Route>
      {/* Signed in on the sign-in page (password, or back from the provider): on to the Agents page. */}
      <Route path="/sign-in">
        <Redirect to="/agents" replace />
      </Route>
      <Route path="/agents" component={AgentsPage} />
      <Route path="/agents/:id">{(p) => <AgentPage id={p.id} />}</Route>
      <Route path="/alerts" component={AlertsPage} />
      <Route path="/deployments" component={DeploymentsPage} />
      <Route path="/scripts" component={ScriptsPage} />
      <Route path="/scripts/:id">{(p) => <ScriptPage id={p.id} />}</Route>
      <Route path="/clients" component={ClientsPage} />
      <Route path="/account" component={AccountPage} />
      {can('policies:read') && <Route path="/policies" component={PoliciesPage} />}
      {can('notifications:read') && <Route path="/notifications" component={NotificationsPage} />}
      {isAdmin && <Route path="/api-keys" component={ApiKeysPage} />}
      {isAdmin && <Route path="/operators" component={OperatorsPage} />}
      {isAdmin && <Route path="/audit" component={AuditPage} />}
      {isAdmin && <Route path="/custom-fields" component={CustomFieldsPage} />}
      <Route>
        <NotFound />
      </Route>
    </Switch>
  );
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such page in the console, or it is not open to your role.</p>
    </>
  );
}
