/**
 * A readable diff between two Flow version definitions: every leaf that differs, by JSON path.
 * Arrays are compared by index (the definitions' arrays are ordered lists: pieces, documents,
 * rules, fields), so a change reads as "pieces[1].settings.mode: simple_match → rules".
 */
export interface DefinitionChange { path: string; before: unknown; after: unknown }

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function diffDefinitions(before: unknown, after: unknown, path = ''): DefinitionChange[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: DefinitionChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) out.push(...diffDefinitions(before[i], after[i], `${path}[${i}]`));
    return out;
  }
  if (isObj(before) && isObj(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => diffDefinitions(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path: path || '(root)', before, after }];
}
