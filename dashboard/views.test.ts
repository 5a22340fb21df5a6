import { describe, expect, it } from 'vitest';
import { DASHBOARD_STRINGS, dashboardLocale } from './i18n.js';
import { auditPage, teamPage, type PageContext } from './views.js';

const ctx = (role: PageContext['role']): PageContext => ({
  locale: 'en', t: DASHBOARD_STRINGS.en, path: '/dashboard/team', csrf: 'tok"en', user: { email: 'a@example.test' },
  org: { id: 'org_1', name: '<b>Org</b>' }, role, project: null,
});

describe('dashboard views', () => {
  it('escapes every interpolated value (names, emails, org names, the CSRF token)', () => {
    const page = teamPage(ctx('owner'), [{ user_id: 'usr_1', email: 'x@example.test', name: '<script>alert(1)</script>', role: 'owner' }], []);
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;b&gt;Org&lt;/b&gt;');
    expect(page).toContain('value="tok&quot;en"');
  });

  it('shows management controls only to roles that hold the permission, and none for the last owner', () => {
    const members = [{ user_id: 'usr_1', email: 'o@example.test', name: null, role: 'owner' as const }, { user_id: 'usr_2', email: 'd@example.test', name: null, role: 'developer' as const }];
    const asOwner = teamPage(ctx('owner'), members, []);
    expect(asOwner).toContain('/dashboard/team/members/usr_2/role');
    expect(asOwner).not.toContain('/dashboard/team/members/usr_1/role');
    const asDeveloper = teamPage(ctx('developer'), members, []);
    expect(asDeveloper).not.toContain('/dashboard/team/invitations"');
    expect(asDeveloper).not.toContain('/role"');
    // An admin is offered no owner role to hand out.
    expect(teamPage(ctx('admin'), members, [])).not.toContain('value="owner"');
  });

  it('every locale has every string; the locale comes from ?lang, then the cookie, then Accept-Language', () => {
    for (const l of ['es', 'pt'] as const) expect(Object.keys(DASHBOARD_STRINGS[l]).sort()).toEqual(Object.keys(DASHBOARD_STRINGS.en).sort());
    expect(dashboardLocale('pt', 'es', 'en')).toBe('pt');
    expect(dashboardLocale(undefined, 'es', 'pt-BR')).toBe('es');
    expect(dashboardLocale(undefined, undefined, 'pt-BR,pt;q=0.9')).toBe('pt');
    expect(dashboardLocale('xx', undefined, undefined)).toBe('en');
    expect(auditPage(ctx('owner'), [])).toContain('Nothing recorded yet.');
  });
});
