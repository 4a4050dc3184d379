/**
 * A validator for the subset of JSON Schema (draft 2020-12) that docs/schema/report.schema.json uses:
 * type (string or list), const, enum, required, properties, additionalProperties: false, items, minimum,
 * pattern, anyOf, $ref to "#/$defs/…". Any other keyword in the schema is an error (so nothing is
 * silently ignored). Written for the tests because no JSON Schema validator is installed; with ajv
 * (ajv@8 + ajv-formats) this file would be replaced by `new Ajv2020().compile(schema)`.
 */
type Schema = Record<string, unknown>;

const KNOWN = new Set(['$schema', '$id', 'title', 'description', '$defs', 'type', 'const', 'enum', 'required', 'properties', 'additionalProperties', 'items', 'minimum', 'pattern', 'anyOf', '$ref']);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Errors of `value` against `schema` (empty when valid), as `path: why`. */
export function validate(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const walk = (s: Schema, v: unknown, at: string): void => {
    for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`schema keyword ${k} at ${at} is not supported by this validator`);
    if (typeof s['$ref'] === 'string') {
      const m = /^#\/\$defs\/(.+)$/.exec(s['$ref']);
      if (!m) throw new Error(`unsupported $ref ${s['$ref']}`);
      const target = (root['$defs'] as Record<string, Schema>)[m[1]!];
      if (!target) throw new Error(`unknown $ref ${s['$ref']}`);
      walk(target, v, at);
      return;
    }
    if (s['type'] !== undefined) {
      const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string];
      const t = typeOf(v);
      if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) { errors.push(`${at}: is ${t}, not ${types.join(' or ')}`); return; }
    }
    if ('const' in s && JSON.stringify(s['const']) !== JSON.stringify(v)) errors.push(`${at}: must be ${JSON.stringify(s['const'])}`);
    if (Array.isArray(s['enum']) && !s['enum'].some((e) => JSON.stringify(e) === JSON.stringify(v))) errors.push(`${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s['enum'])}`);
    if (typeof s['minimum'] === 'number' && typeof v === 'number' && v < s['minimum']) errors.push(`${at}: below ${s['minimum']}`);
    if (typeof s['pattern'] === 'string' && typeof v === 'string' && !new RegExp(s['pattern'], 'u').test(v)) errors.push(`${at}: ${JSON.stringify(v)} does not match ${s['pattern']}`);
    if (Array.isArray(s['anyOf'])) {
      const ok = (s['anyOf'] as Schema[]).some((alt) => {
        const before = errors.length;
        walk(alt, v, at);
        const good = errors.length === before;
        errors.length = before;
        return good;
      });
      if (!ok) errors.push(`${at}: matches none of anyOf`);
    }
    if (typeOf(v) === 'object') {
      const o = v as Record<string, unknown>;
      for (const r of (s['required'] as string[] | undefined) ?? []) if (!(r in o)) errors.push(`${at}: missing ${r}`);
      const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
      for (const [k, x] of Object.entries(o)) {
        if (props[k]) walk(props[k], x, `${at}.${k}`);
        else if (s['additionalProperties'] === false) errors.push(`${at}: unexpected property ${k}`);
      }
    }
    if (Array.isArray(v) && s['items']) v.forEach((x, i) => walk(s['items'] as Schema, x, `${at}[${i}]`));
  };
  walk(root, value, '$');
  return errors;
}
