import { applicationScopes, canonicalScopes, grantScopes, parseScopeParam } from './scopes';

describe('scope parameter', () => {
  it('splits on spaces, drops repeats and keeps an empty parameter empty', () => {
    expect(parseScopeParam('consent  dataprocessing consent')).toEqual({ ok: true, scopes: ['consent', 'dataprocessing'] });
    expect(parseScopeParam('   ')).toEqual({ ok: true, scopes: [] });
  });

  it('rejects characters RFC 6749 does not allow in a scope token', () => {
    expect(parseScopeParam('consent "x"')).toMatchObject({ ok: false });
    expect(parseScopeParam('cons\\ent')).toMatchObject({ ok: false });
  });
});

describe('granting scopes', () => {
  const allowed = ['consent', 'dataprocessing'];

  it('grants a subset of the allowed scopes in canonical order', () => {
    expect(grantScopes(['dataprocessing', 'consent'], allowed)).toEqual({ ok: true, scopes: ['consent', 'dataprocessing'] });
    expect(grantScopes(['consent'], allowed)).toEqual({ ok: true, scopes: ['consent'] });
  });

  it('grants every allowed scope when none is requested', () => {
    expect(grantScopes([], allowed)).toEqual({ ok: true, scopes: ['consent', 'dataprocessing'] });
  });

  it('names the requested scopes that are not allowed', () => {
    expect(grantScopes(['consent', 'webhooks', 'admin'], allowed)).toEqual({ ok: false, notAllowed: ['webhooks', 'admin'] });
  });

  it('orders known scopes first as consent, dataprocessing, webhooks', () => {
    expect(canonicalScopes(['webhooks', 'zeta', 'consent', 'alpha', 'consent'])).toEqual(['consent', 'webhooks', 'alpha', 'zeta']);
  });
});

describe('application scopes', () => {
  it('are all scopes when none is given', () => {
    expect(applicationScopes([])).toEqual({ ok: true, scopes: ['consent', 'dataprocessing', 'webhooks'] });
    expect(applicationScopes([' ', ''])).toEqual({ ok: true, scopes: ['consent', 'dataprocessing', 'webhooks'] });
  });

  it('accept only consent, dataprocessing and webhooks', () => {
    expect(applicationScopes(['webhooks', ' consent '])).toEqual({ ok: true, scopes: ['consent', 'webhooks'] });
    expect(applicationScopes(['consent', 'admin'])).toEqual({ ok: false, unknown: ['admin'] });
  });
});
