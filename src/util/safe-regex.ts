/**
 * A conservative check that a user's regular expression cannot backtrack catastrophically (a `table:` model's
 * `/regex/` patterns are matched against every message of every run). JavaScript's engine backtracks, so a
 * pattern like `(a+)+$` takes time exponential in the message's length: one such pattern would hang a run.
 *
 * Rejected (the reason is returned): a repeated group that itself contains a repetition (star height 2:
 * `(a+)+`, `(a*)*`, `(\w+\s?)*`, `(a{1,9}){1,9}`); a repeated group containing an alternation whose
 * alternatives are not plain literals with distinct first characters (`(a|a)*`, `(a|ab)+`, `(\w|\d)+`);
 * backreferences (`\1`, `\k<name>`), which no linear matcher supports. Accepted: every pattern of star height
 * 1 without those, e.g. `^Give me .*$`, `(yes|no)+`, `[A-Z]\w*`. Polynomial blow-ups of adjacent repetitions
 * (`\d+\d+\d+x`) pass: they are bounded by a message's length cubed, not exponential.
 */

/** Why `source` (a RegExp's source text, already known to compile) may backtrack catastrophically, or undefined. */
export function catastrophicReason(source: string, flags = ''): string | undefined {
  try {
    const p = new PatternScan(source, flags.includes('i'));
    p.alternation();
    return undefined;
  } catch (e) {
    if (e instanceof Unsafe) return e.message;
    throw e;
  }
}

class Unsafe extends Error {}

/** What a piece of pattern contains. */
interface Info {
  /** It contains a quantifier that repeats (more than once). */
  readonly repeats: boolean;
  /** It contains an alternation whose alternatives may overlap. */
  readonly ambiguous: boolean;
  /** The plain literal text it matches exactly, if it is one (no classes, groups or quantifiers). */
  readonly literal: string | undefined;
}

class PatternScan {
  private i = 0;

  constructor(private readonly src: string, private readonly ignoreCase: boolean) {}

  private peek(): string | undefined {
    return this.src[this.i];
  }

  /** alternatives separated by `|`, up to `)` or the end. */
  alternation(): Info {
    const alts: Info[] = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    if (alts.length === 1) return alts[0]!;
    const firsts = alts.map((a) => (a.literal ? (this.ignoreCase ? a.literal[0]!.toLowerCase() : a.literal[0]) : undefined));
    const disjoint = firsts.every((f) => f !== undefined) && new Set(firsts).size === firsts.length;
    return { repeats: alts.some((a) => a.repeats), ambiguous: !disjoint || alts.some((a) => a.ambiguous), literal: undefined };
  }

  private sequence(): Info {
    let repeats = false;
    let ambiguous = false;
    let literal: string | undefined = '';
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      const atom = this.atom();
      const q = this.quantifier();
      if (q === 'repeat') {
        if (atom.repeats) throw new Unsafe('a repeated group contains a repetition (nested quantifiers such as (a+)+ backtrack exponentially)');
        if (atom.ambiguous) throw new Unsafe('a repeated group contains alternatives that can match the same text (such as (a|ab)+, which backtracks exponentially); make the alternatives plain texts with different first characters');
        repeats = true;
      }
      repeats ||= atom.repeats;
      ambiguous ||= atom.ambiguous;
      literal = q === 'none' && literal !== undefined && atom.literal !== undefined ? literal + atom.literal : undefined;
    }
    return { repeats, ambiguous, literal: literal === '' ? undefined : literal };
  }

  /** One atom: a group, a class, an escape, an anchor or a character. */
  private atom(): Info {
    const c = this.src[this.i++]!;
    const plain = (lit: string | undefined): Info => ({ repeats: false, ambiguous: false, literal: lit });
    switch (c) {
      case '(': {
        if (this.src.startsWith('?<=', this.i) || this.src.startsWith('?<!', this.i)) this.i += 3;
        else if (this.src.startsWith('?<', this.i)) this.i = this.src.indexOf('>', this.i) + 1;
        else if (this.src.startsWith('?:', this.i) || this.src.startsWith('?=', this.i) || this.src.startsWith('?!', this.i)) this.i += 2;
        const inner = this.alternation();
        this.i++; // ')'
        return { ...inner, literal: undefined };
      }
      case '[': {
        for (let d = this.src[this.i]; d !== undefined && d !== ']'; d = this.src[this.i]) this.i += d === '\\' ? 2 : 1;
        this.i++;
        return plain(undefined);
      }
      case '\\': {
        const e = this.src[this.i++] ?? '';
        if (/[1-9]/.test(e) || (e === 'k' && this.src[this.i] === '<')) throw new Unsafe('a backreference (\\1, \\k<name>) can backtrack exponentially');
        if (e === 'u' || e === 'x' || e === 'c' || e === 'p' || e === 'P') {
          // \uXXXX, \u{…}, \xXX, \cX, \p{…}: skip the payload; a class-like atom
          if (this.src[this.i] === '{') this.i = this.src.indexOf('}', this.i) + 1;
          else this.i += e === 'u' ? 4 : e === 'x' ? 2 : e === 'c' ? 1 : 0;
          return plain(undefined);
        }
        return plain(/[dDwWsSbBnrtfv0]/.test(e) ? undefined : e);
      }
      case '.': case '^': case '$':
        return plain(undefined);
      default:
        return plain(c);
    }
  }

  /** A quantifier after an atom: none, at most once, or repeating (lazy or not). */
  private quantifier(): 'none' | 'optional' | 'repeat' {
    const c = this.peek();
    let kind: 'none' | 'optional' | 'repeat' = 'none';
    if (c === '*' || c === '+') { this.i++; kind = 'repeat'; }
    else if (c === '?') { this.i++; kind = 'optional'; }
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return 'none'; // a literal brace
      this.i += m[0].length;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      kind = max > 1 ? 'repeat' : 'optional';
    }
    if (kind !== 'none' && this.peek() === '?') this.i++; // lazy
    return kind;
  }
}
