import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../engine/assets.js';
import { can, canAssignRole, permissionsMarkdown } from './permissions.js';

describe('permission table', () => {
  it('docs/permissions.md carries exactly the table in code', () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'permissions.md'), 'utf8');
    const start = doc.indexOf('<!-- table:start -->');
    const end = doc.indexOf('<!-- table:end -->');
    expect(start).toBeGreaterThan(-1);
    expect(doc.slice(start + '<!-- table:start -->'.length, end).trim()).toBe(permissionsMarkdown());
  });

  it('only owner, admin and compliance record dispositions', () => {
    expect(['owner', 'admin', 'developer', 'compliance'].filter((r) => can(r as never, 'cases:review'))).toEqual(['owner', 'admin', 'compliance']);
  });

  it('admins cannot grant or remove the owner role; owners can', () => {
    expect(canAssignRole('admin', 'developer', 'compliance')).toBe(true);
    expect(canAssignRole('admin', 'developer', 'owner')).toBe(false);
    expect(canAssignRole('admin', 'owner', 'admin')).toBe(false);
    expect(canAssignRole('owner', 'owner', 'admin')).toBe(true);
    expect(canAssignRole('developer', 'compliance', 'developer')).toBe(false);
  });
});
