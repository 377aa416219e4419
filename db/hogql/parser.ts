/**
 * The HogQL expression parser: text → typed syntax tree (ast.ts). A subset of ClickHouse's expression grammar, as
 * PostHog's HogQL accepts it in `select` and `where`: literals, fields (`properties.$browser`,
 * `properties['key with spaces']`), arithmetic, comparisons, `and/or/not`, `in`, `like/ilike`, `is [not] null`,
 * `between`, `interval`, function calls, arrays `[a, b]`, tuples `(a, b)`, element access (`x[1]`, `t.1`),
 * `(expr AS name)` and lambdas `x -> body`. Anything else is a HogQLError that says where.
 *
 * Precedence, loosest first, as PostHog's grammar: lambda, the ternary `c ? a : b` (right to left), or, and, not,
 * `??`, comparison (= != < > like in is between and the regular expression matches =~ ~ !~ =~* ~* !~*), ||, + -,
 * * / %, unary -, member access (. and []).
 *
 * Operators written as functions (`equals(a, b)`, `and(…)`, `not(x)`) become their operators' trees here
 * (library/operators.ts). `and`, `or`, `in`, `like` and `ilike` name a function where no operator can stand (at
 * the start of an operand, followed by `(`); `not` does when `(` follows it directly, so `not (a)` stays the
 * operator.
 */
import { ZERO_ARRAY_INDEX, ZERO_TUPLE_INDEX } from './arrays.js';
import type { CompareOp, Expr, IntervalUnit, QueryRef, SelectItem, WindowSpec } from './ast.js';
import { HogQLError } from './errors.js';
import { operatorForm } from './library/operators.js';
import { ownEntry } from './lookup.js';

/** Longest expression accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 10_000;
/** The most items an array or tuple literal may list (the text limit allows a few thousand anyway). */
export const MAX_ARRAY_LITERAL_ITEMS = 10_000;
/** Deepest nesting accepted (parentheses, calls, operators). */
const MAX_DEPTH = 64;

export type Token =
  | { type: 'number'; value: number; text: string; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'ident'; value: string; quoted: boolean; pos: number }
  | { type: 'op'; value: string; pos: number }
  /** A whole HTML-like tag (HogQLX), `<a href={url}>text</a>`, read at once: its text is not HogQL. */
  | { type: 'tag'; tag: TagToken; pos: number }
  | { type: 'eof'; pos: number };

/** A HogQLX tag as read: attribute values and children are text, or the tokens of a `{expression}`. */
export interface TagToken {
  name: string;
  attributes: { name: string; value: string | true | Token[] }[];
  /** Null for a self-closing tag (`<Sparkline … />`). */
  children: (string | Token[] | TagToken)[] | null;
}

/**
 * The operators and punctuation, matched longest first (`=~*` before `=~` before `=`, `!~` beside `!=`), whatever
 * order they are listed in.
 */
const OPERATORS = [
  '->', '==', '!=', '<>', '<=', '>=', '||', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.', '[', ']',
  // HogQL's own: `??` (ifNull), `c ? a : b` (if), and the regular expression matches.
  '??', '?', ':', '=~*', '!~*', '=~', '!~', '~*', '~',
].sort((a, b) => b.length - a.length);
const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[A-Za-z0-9_$]/;
const DIGIT = /[0-9]/;
const NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?)(?:[eE][+-]?[0-9]+)?/;

/**
 * The escapes a quoted string or identifier unescapes, as PostHog's parser does (`parse_string.py`, after
 * ClickHouse's driver): `\0` is dropped. The quote itself is escaped by doubling it or by a backslash; any other
 * backslash stays as written, so `'\d'` is the two characters a regular expression wants.
 */
const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  f: '\f',
  r: '\r',
  n: '\n',
  t: '\t',
  '0': '',
  a: '\x07',
  v: '\v',
  '\\': '\\',
};

function describe(token: Token): string {
  switch (token.type) {
    case 'eof':
      return 'end of expression';
    case 'string':
      return 'a string';
    case 'number':
      return `"${token.text}"`;
    case 'tag':
      return `the tag <${token.tag.name}>`;
    default:
      return `"${token.value}"`;
  }
}

/** Reads a quoted run starting at `start` (the opening quote); returns its unescaped text and where it ends. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  const quote = text[start]!;
  let value = '';
  let index = start + 1;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\\') {
      const next = text[index + 1];
      if (next === undefined) break;
      value += next === quote ? quote : (ownEntry(ESCAPES, next) ?? `\\${next}`);
      index += 2;
      continue;
    }
    if (char === quote) {
      if (text[index + 1] === quote) {
        value += quote;
        index += 2;
        continue;
      }
      return { value, end: index + 1 };
    }
    value += char;
    index += 1;
  }
  throw new HogQLError(`Unterminated ${quote === "'" ? 'string' : 'quoted identifier'} starting at position ${start + 1}.`);
}

const LINE_END = /[\r\n]/g;

/**
 * Where a comment starting at `start` ends, or -1 when none starts there. As PostHog's HogQL lexer reads them:
 * `--` and `//` run to the end of the line (whatever follows them), a block comment from slash-star to the first
 * star-slash (not nested); `#` is not a comment. Called only outside quotes, so that a comment marker inside a
 * string or a quoted identifier is text.
 */
function commentEnd(text: string, start: number): number {
  const opener = text.slice(start, start + 2);
  if (opener === '--' || opener === '//') {
    LINE_END.lastIndex = start;
    return LINE_END.exec(text)?.index ?? text.length;
  }
  if (opener === '/*') {
    const close = text.indexOf('*/', start + 2);
    if (close === -1) throw new HogQLError(`Unterminated comment starting at position ${start + 1}.`);
    return close + 2;
  }
  return -1;
}

/**
 * The text with each comment replaced by one space, for readers that cut the text into pieces by position
 * (a select list split at its commas); strings and quoted identifiers are kept as written.
 */
export function withoutComments(text: string): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "'" || char === '"' || char === '`') {
      const { end } = readQuoted(text, index);
      result += text.slice(index, end);
      index = end;
      continue;
    }
    const end = commentEnd(text, index);
    if (end !== -1) {
      result += ' ';
      index = end;
      continue;
    }
    result += char;
    index += 1;
  }
  return result;
}

/** Whether nothing but white space and comments follows `start`. */
function onlyCommentsFrom(text: string, start: number): boolean {
  let index = start;
  while (index < text.length) {
    if (/\s/.test(text[index]!)) index += 1;
    else {
      const end = commentEnd(text, index);
      if (end === -1) return false;
      index = end;
    }
  }
  return true;
}

/**
 * `statement`: `{` and `}` are tokens (a query's `{name}`), and so is a `;` that ends the text; in an expression
 * they stay unexpected characters. Comments are white space.
 */
export function tokenize(text: string, statement = false): Token[] {
  return scan(text, 0, statement, false, 0).tokens;
}

/** Words after which an operand starts, so that `<` after them opens a tag rather than compares. */
const OPERAND_FOLLOWS = new Set(['select', 'distinct', 'where', 'prewhere', 'having', 'and', 'or', 'not', 'then', 'else', 'when', 'by', 'on', 'in', 'like', 'ilike', 'between', 'case', 'return']);
const TAG_NAME_START = /[A-Za-z_]/;
const TAG_NAME_PART = /[A-Za-z0-9_-]/;
/** Deepest nesting of tags (each may hold expressions holding tags). */
const MAX_TAG_DEPTH = 32;

/** Whether `previous` ends an operand, after which `<` is less-than. */
function endsOperand(previous: Token | undefined): boolean {
  if (!previous) return false;
  switch (previous.type) {
    case 'number':
    case 'string':
    case 'tag':
      return true;
    case 'ident':
      return previous.quoted || !OPERAND_FOLLOWS.has(previous.value.toLowerCase());
    case 'op':
      return [')', ']', '}'].includes(previous.value);
    default:
      return false;
  }
}

function skipSpaceAndComments(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    if (/\s/.test(text[index]!)) index += 1;
    else {
      const end = commentEnd(text, index);
      if (end === -1) return index;
      index = end;
    }
  }
  return index;
}

/**
 * Whether the `<` at `index` opens a tag, as PostHog's lexer decides (a name directly after it, then `>`, `/`,
 * or after white space another name), and only where an operand may start: `a <b` stays a comparison.
 */
function opensTag(text: string, index: number, previous: Token | undefined): boolean {
  if (!TAG_NAME_START.test(text[index + 1] ?? '') || endsOperand(previous)) return false;
  let end = index + 2;
  while (end < text.length && TAG_NAME_PART.test(text[end]!)) end += 1;
  const next = text[end];
  if (next === '>' || next === '/') return true;
  if (next === undefined || !/\s/.test(next)) return false;
  const after = text[skipSpaceAndComments(text, end)];
  return after !== undefined && /[>/A-Za-z0-9_]/.test(after);
}

function tagName(text: string, start: number): { name: string; end: number } {
  let end = start;
  while (end < text.length && TAG_NAME_PART.test(text[end]!) && (end > start || TAG_NAME_START.test(text[end]!))) end += 1;
  if (end === start) throw new HogQLError(`Expected a tag name at position ${start + 1}.`);
  return { name: text.slice(start, end), end };
}

/** The expression of `{…}` whose `{` is at `start`: its tokens, and where the text goes on after its `}`. */
function embedded(text: string, start: number, statement: boolean, depth: number): { tokens: Token[]; end: number } {
  return scan(text, start + 1, statement, true, depth);
}

/** A tag whose `<` is at `start`, with its attributes and children, nested tags included. */
function readTag(text: string, start: number, statement: boolean, depth: number): { tag: TagToken; end: number } {
  if (depth > MAX_TAG_DEPTH) throw new HogQLError(`Tags are nested more than ${MAX_TAG_DEPTH} levels deep.`);
  const { name, end: afterName } = tagName(text, start + 1);
  const tag: TagToken = { name, attributes: [], children: null };
  let index = afterName;
  for (;;) {
    index = skipSpaceAndComments(text, index);
    if (text.startsWith('/>', index)) return { tag, end: index + 2 };
    if (text[index] === '>') break;
    if (index >= text.length) throw new HogQLError(`The tag <${name}> starting at position ${start + 1} is not closed.`);
    const attribute = tagName(text, index);
    index = skipSpaceAndComments(text, attribute.end);
    if (text[index] !== '=') {
      tag.attributes.push({ name: attribute.name, value: true });
      continue;
    }
    index = skipSpaceAndComments(text, index + 1);
    const quote = text[index];
    if (quote === "'" || quote === '"') {
      const { value, end } = readQuoted(text, index);
      tag.attributes.push({ name: attribute.name, value });
      index = end;
    } else if (quote === '{') {
      const { tokens, end } = embedded(text, index, statement, depth);
      tag.attributes.push({ name: attribute.name, value: tokens });
      index = end;
    } else {
      throw new HogQLError(`The attribute ${attribute.name} of <${name}> needs a quoted value or {an expression} (position ${index + 1}).`);
    }
  }
  const children: (string | Token[] | TagToken)[] = [];
  tag.children = children;
  index += 1;
  for (;;) {
    if (index >= text.length) throw new HogQLError(`The tag <${name}> starting at position ${start + 1} has no closing </${name}>.`);
    if (text.startsWith('</', index)) {
      const closing = tagName(text, skipSpaceAndComments(text, index + 2));
      const end = skipSpaceAndComments(text, closing.end);
      if (text[end] !== '>') throw new HogQLError(`Expected ">" after </${closing.name} at position ${end + 1}.`);
      if (closing.name !== name) throw new HogQLError(`Opening and closing HogQLX tags must match. Got ${name} and ${closing.name}.`);
      return { tag, end: end + 1 };
    }
    if (text[index] === '{') {
      const { tokens, end } = embedded(text, index, statement, depth);
      children.push(tokens);
      index = end;
    } else if (text[index] === '<') {
      const nested = readTag(text, index, statement, depth + 1);
      children.push(nested.tag);
      index = nested.end;
    } else {
      let end = index;
      while (end < text.length && text[end] !== '<' && text[end] !== '{') end += 1;
      const words = text.slice(index, end);
      // As PostHog: white space that holds a line break is indentation, not text.
      if (!(/^\s*$/.test(words) && /[\r\n]/.test(words))) children.push(words);
      index = end;
    }
  }
}

/**
 * The tokens from `start`: to the end of the text, or with `untilBrace` to the `}` that closes an embedded
 * expression (its tokens then end with an eof at that `}`, and `end` is just after it).
 */
function scan(text: string, start: number, statement: boolean, untilBrace: boolean, depth: number): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  let index = start;
  let braces = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const afterComment = commentEnd(text, index);
    if (afterComment !== -1) {
      index = afterComment;
      continue;
    }
    if (statement && char === ';' && onlyCommentsFrom(text, index + 1)) {
      tokens.push({ type: 'op', value: ';', pos: index });
      break;
    }
    if (char === "'" || char === '"' || char === '`') {
      const { value, end } = readQuoted(text, index);
      if (value.includes('\u0000')) throw new HogQLError(`A string cannot contain the NUL character (position ${index + 1}).`);
      tokens.push(char === "'" ? { type: 'string', value, pos: index } : { type: 'ident', value, quoted: true, pos: index });
      index = end;
      continue;
    }
    if (DIGIT.test(char)) {
      const match = NUMBER.exec(text.slice(index))!;
      const raw = match[0];
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new HogQLError(`The number ${raw} is out of range.`);
      if (/^[0-9]+$/.test(raw) && !Number.isSafeInteger(value)) throw new HogQLError(`The integer ${raw} is too large.`);
      tokens.push({ type: 'number', value, text: raw, pos: index });
      index += raw.length;
      if (index < text.length && IDENT_START.test(text[index]!)) {
        throw new HogQLError(`Unexpected "${text[index]}" after the number ${raw} at position ${index + 1}.`);
      }
      continue;
    }
    if (IDENT_START.test(char)) {
      let end = index + 1;
      while (end < text.length && IDENT_PART.test(text[end]!)) end += 1;
      tokens.push({ type: 'ident', value: text.slice(index, end), quoted: false, pos: index });
      index = end;
      continue;
    }
    if (char === '<' && opensTag(text, index, tokens.at(-1))) {
      const { tag, end } = readTag(text, index, statement, depth + 1);
      tokens.push({ type: 'tag', tag, pos: index });
      index = end;
      continue;
    }
    const operator = (statement || untilBrace ? [...OPERATORS, '{', '}'] : OPERATORS).find((candidate) => text.startsWith(candidate, index));
    if (!operator) throw new HogQLError(`Unexpected character "${char}" at position ${index + 1}.`);
    if (untilBrace && operator === '}') {
      if (braces === 0) {
        tokens.push({ type: 'eof', pos: index });
        return { tokens, end: index + 1 };
      }
      braces -= 1;
    } else if (untilBrace && operator === '{') braces += 1;
    tokens.push({ type: 'op', value: operator, pos: index });
    index += operator.length;
  }
  if (untilBrace) throw new HogQLError(`The expression in { } starting at position ${start} is not closed.`);
  tokens.push({ type: 'eof', pos: text.length });
  return { tokens, end: text.length };
}

const INTERVAL_UNITS: Readonly<Record<string, IntervalUnit>> = {
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};

/** The tags PostHog's HogQLX knows (hogqlx.py): its UI's components, then HTML's. */
const HOGQLX_TAGS = [
  'Sparkline', 'RecordingButton', 'ExplainCSPReport',
  'a', 'blink', 'marquee', 'redacted',
  'em', 'strong', 'span', 'div', 'p', 'pre', 'code', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'table',
  'thead', 'tbody', 'tr', 'th', 'td', 'blockquote', 'hr', 'b', 'i', 'u',
];

/** A value inside a tag as PostHog converts it: arrays and tuples (nested ones too) become tuples. */
function asHogQLX(expr: Expr): Expr {
  if (expr.kind === 'array' || expr.kind === 'tuple') return { kind: 'tuple', items: expr.items.map(asHogQLX) };
  return expr;
}

/** Keywords that also name an operator's function: `and(a, b)`, `not(x)`, `in(x, (1, 2))`, `like(a, '%b')`. */
const OPERATOR_WORDS = ['and', 'or', 'not', 'in', 'like', 'ilike'];

type RegexOperator = { negated: boolean; caseInsensitive: boolean };

/** HogQL's regular expression operators, as PostHog's grammar reads them: `~` and `=~` match, `!~` does not. */
const REGEX_OPERATORS: Readonly<Record<string, RegexOperator>> = {
  '=~': { negated: false, caseInsensitive: false },
  '~': { negated: false, caseInsensitive: false },
  '!~': { negated: true, caseInsensitive: false },
  '=~*': { negated: false, caseInsensitive: true },
  '~*': { negated: false, caseInsensitive: true },
  '!~*': { negated: true, caseInsensitive: true },
};

/**
 * `a =~ b` as PostHog compiles it: match(a, b); the case-insensitive forms prefix the pattern with `(?i)`, the
 * negated ones are not(match(…)).
 */
function regexMatch(subject: Expr, pattern: Expr, operator: RegexOperator): Expr {
  // PostHog's printer answers a NULL matched against a NULL as = does: a match, so !~ is false.
  const isNullConstant = (expr: Expr) => expr.kind === 'constant' && expr.value === null;
  if (isNullConstant(subject) && isNullConstant(pattern)) return { kind: 'constant', value: !operator.negated };
  let regex = pattern;
  if (operator.caseInsensitive) {
    regex =
      pattern.kind === 'constant' && typeof pattern.value === 'string'
        ? { kind: 'constant', value: `(?i)${pattern.value}` }
        : { kind: 'call', name: 'concat', args: [{ kind: 'constant', value: '(?i)' }, pattern] };
  }
  const match: Expr = { kind: 'call', name: 'match', args: [subject, regex] };
  return operator.negated ? { kind: 'not', expr: match } : match;
}

export function intervalUnit(word: string): IntervalUnit | undefined {
  const lower = word.toLowerCase();
  return ownEntry(INTERVAL_UNITS, lower.endsWith('s') ? lower.slice(0, -1) : lower);
}

/** Values bound to `{name}` placeholders, each a constant of the tree (never text of the query). */
export type PlaceholderValues = Readonly<Record<string, string | number | boolean | null>>;

export class Parser {
  protected index = 0;
  private depth = 0;

  constructor(
    protected tokens: Token[],
    private readonly placeholders: PlaceholderValues | null = null,
  ) {}

  protected get current(): Token {
    return this.tokens[this.index]!;
  }

  protected advance(): Token {
    const token = this.current;
    if (token.type !== 'eof') this.index += 1;
    return token;
  }

  protected isOp(value: string): boolean {
    return this.current.type === 'op' && this.current.value === value;
  }

  protected isKeyword(word: string, offset = 0): boolean {
    const token = this.tokens[this.index + offset];
    return token?.type === 'ident' && !token.quoted && token.value.toLowerCase() === word;
  }

  protected fail(expected: string): never {
    const token = this.current;
    throw new HogQLError(`Expected ${expected} but found ${describe(token)} at position ${token.pos + 1}.`);
  }

  protected expectOp(value: string): void {
    if (!this.isOp(value)) this.fail(`"${value}"`);
    this.advance();
  }

  protected nested<T>(parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new HogQLError(`The expression is nested more than ${MAX_DEPTH} levels deep.`);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  /** A statement nested in an expression (`IN (SELECT …)`), which only a statement's parser reads. */
  protected nestedQuery(): QueryRef {
    throw new HogQLError('Subqueries are not supported here.');
  }

  /** `OVER (…)` after a call: a window, which only a statement's parser reads. */
  protected windowSpec(): WindowSpec {
    throw new HogQLError('Window functions (OVER) are only supported in a SELECT query.');
  }

  atEnd(): boolean {
    return this.current.type === 'eof';
  }

  expectEnd(): void {
    if (!this.atEnd()) this.fail('end of expression');
  }

  /** After a complete expression: `AS name`, if present. */
  alias(): string | null {
    if (!this.isKeyword('as')) return null;
    this.advance();
    const token = this.advance();
    if (token.type !== 'ident') {
      this.index -= 1;
      this.fail('a column name after AS');
    }
    return token.value;
  }

  expression(): Expr {
    return this.nested(() => this.lambda() ?? this.ternary());
  }

  /**
   * `x -> body` or `(x, y) -> body`, when that is what follows: read wherever an expression starts (the
   * compiler refuses one anywhere but as an argument of a function that calls it).
   */
  private lambda(): Expr | null {
    const params: string[] = [];
    let index = this.index;
    const at = (offset: number) => this.tokens[index + offset];
    const isOpAt = (offset: number, value: string) => at(offset)?.type === 'op' && (at(offset) as { value: string }).value === value;
    const nameAt = (offset: number) => {
      const token = at(offset);
      return token?.type === 'ident' ? token.value : null;
    };
    const single = nameAt(0);
    if (single !== null && isOpAt(1, '->')) {
      params.push(single);
      index += 2;
    } else if (isOpAt(0, '(')) {
      let offset = 1;
      for (;;) {
        const name = nameAt(offset);
        if (name === null) return null;
        params.push(name);
        offset += 1;
        if (isOpAt(offset, ',')) offset += 1;
        else if (isOpAt(offset, ')')) break;
        else return null;
      }
      if (!isOpAt(offset + 1, '->')) return null;
      index += offset + 2;
    } else {
      return null;
    }
    if (new Set(params).size !== params.length) throw new HogQLError('A lambda names the same parameter twice.');
    this.index = index;
    return { kind: 'lambda', params, body: this.expression() };
  }

  /** `c ? a : b`: if(c, a, b), the loosest operator, grouping from the right. */
  private ternary(): Expr {
    const condition = this.or();
    if (!this.isOp('?')) return condition;
    this.advance();
    const then = this.expression();
    this.expectOp(':');
    const otherwise = this.nested(() => this.ternary());
    return { kind: 'call', name: 'if', args: [condition, then, otherwise] };
  }

  private or(): Expr {
    const exprs = [this.and()];
    while (this.isKeyword('or')) {
      this.advance();
      exprs.push(this.and());
    }
    return exprs.length === 1 ? exprs[0]! : { kind: 'or', exprs };
  }

  private and(): Expr {
    const exprs = [this.not()];
    while (this.isKeyword('and')) {
      this.advance();
      exprs.push(this.not());
    }
    return exprs.length === 1 ? exprs[0]! : { kind: 'and', exprs };
  }

  private not(): Expr {
    if (this.isKeyword('not') && !this.callFollows(true)) {
      this.advance();
      return this.nested(() => ({ kind: 'not', expr: this.not() }));
    }
    return this.nullish();
  }

  /** `a ?? b`: ifNull(a, b), grouping from the left. */
  private nullish(): Expr {
    let left = this.comparison();
    while (this.isOp('??')) {
      this.advance();
      left = { kind: 'call', name: 'ifNull', args: [left, this.comparison()] };
    }
    return left;
  }

  /** Whether the word at the current token is followed by `(` (`directly`: with nothing between them). */
  private callFollows(directly: boolean): boolean {
    const [word, next] = [this.current, this.tokens[this.index + 1]];
    if (next?.type !== 'op' || next.value !== '(') return false;
    return !directly || (word.type === 'ident' && next.pos === word.pos + word.value.length);
  }

  private comparison(): Expr {
    const left = this.concat();
    const token = this.current;
    if (token.type === 'op') {
      const ops: Readonly<Record<string, CompareOp>> = {
        '=': '=',
        '==': '=',
        '!=': '!=',
        '<>': '!=',
        '<': '<',
        '<=': '<=',
        '>': '>',
        '>=': '>=',
      };
      const op = ownEntry(ops, token.value);
      if (op) {
        this.advance();
        return this.compared({ kind: 'compare', op, left, right: this.concat() });
      }
      const regex = ownEntry(REGEX_OPERATORS, token.value);
      if (regex) {
        this.advance();
        return regexMatch(left, this.concat(), regex);
      }
      return left;
    }
    let negated = false;
    if (this.isKeyword('not') && ['like', 'ilike', 'in', 'between'].some((word) => this.isKeyword(word, 1))) {
      this.advance();
      negated = true;
    }
    if (this.isKeyword('like') || this.isKeyword('ilike')) {
      const word = (this.advance() as { value: string }).value.toLowerCase();
      const op = `${negated ? 'not ' : ''}${word}` as CompareOp;
      return { kind: 'compare', op, left, right: this.concat() };
    }
    if (this.isKeyword('in')) {
      this.advance();
      if (this.isOp('(') && (this.isKeyword('select', 1) || this.isKeyword('with', 1))) {
        this.advance();
        const query = this.nested(() => this.nestedQuery());
        this.expectOp(')');
        return { kind: 'inQuery', negated, expr: left, query };
      }
      return { kind: 'in', negated, expr: left, list: this.inList() };
    }
    if (this.isKeyword('between')) {
      this.advance();
      const low = this.concat();
      if (!this.isKeyword('and')) this.fail('AND');
      this.advance();
      return { kind: 'between', negated, expr: left, low, high: this.concat() };
    }
    if (this.isKeyword('is')) {
      this.advance();
      let isNegated = false;
      if (this.isKeyword('not')) {
        this.advance();
        isNegated = true;
      }
      if (!this.isKeyword('null')) this.fail('NULL');
      this.advance();
      return { kind: 'isNull', negated: isNegated, expr: left };
    }
    return left;
  }

  private inList(): Expr[] {
    const close = this.isOp('(') ? ')' : this.isOp('[') ? ']' : null;
    if (!close) this.fail('a list in parentheses after IN');
    this.advance();
    const list: Expr[] = [];
    if (!this.isOp(close)) {
      do {
        list.push(this.expression());
      } while (this.isOp(',') && this.advance());
    }
    this.expectOp(close);
    return list;
  }

  private concat(): Expr {
    let left = this.additive();
    while (this.isOp('||')) {
      this.advance();
      left = { kind: 'call', name: 'concat', args: [left, this.additive()] };
    }
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.advance() as { value: '+' | '-' }).value;
      left = { kind: 'arithmetic', op, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const op = (this.advance() as { value: '*' | '/' | '%' }).value;
      left = { kind: 'arithmetic', op, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Expr {
    if (this.isOp('-') || this.isOp('+')) {
      const sign = (this.advance() as { value: string }).value;
      const operand = this.nested(() => this.unary());
      if (sign === '+') return operand;
      if (operand.kind === 'constant' && typeof operand.value === 'number') return { kind: 'constant', value: -operand.value };
      return { kind: 'negate', expr: operand };
    }
    return this.postfix();
  }

  /**
   * Member access, tighter than any operator: on a field, constant keys extend its chain (`properties.list[1]`,
   * `properties['a b']`); anywhere else, and for a computed index, `[i]` is an element of an array and `.N` of a
   * tuple.
   */
  private postfix(): Expr {
    let expr = this.primary();
    while (this.isOp('.') || this.isOp('[')) {
      const accessor = (this.advance() as { value: string }).value;
      if (accessor === '.') {
        const token = this.advance();
        if (expr.kind === 'field' && token.type === 'ident') expr = { kind: 'field', chain: [...expr.chain, token.value] };
        else if (token.type === 'number' && Number.isSafeInteger(token.value)) {
          if (token.value === 0 && expr.kind === 'field') throw new HogQLError(ZERO_TUPLE_INDEX);
          expr =
            expr.kind === 'field'
              ? { kind: 'field', chain: [...expr.chain, token.value] }
              : { kind: 'element', expr, index: { kind: 'constant', value: token.value }, tuple: true };
        } else {
          this.index -= 1;
          this.fail(expr.kind === 'field' ? 'a name after "."' : 'the position of a tuple element after "."');
        }
      } else {
        const key = this.expression();
        this.expectOp(']');
        const isKey = key.kind === 'constant' && (typeof key.value === 'string' || Number.isSafeInteger(key.value));
        if (expr.kind === 'field' && key.kind === 'constant' && key.value === 0) throw new HogQLError(ZERO_ARRAY_INDEX);
        if (expr.kind === 'field' && isKey) expr = { kind: 'field', chain: [...expr.chain, key.value as string | number] };
        else expr = { kind: 'element', expr, index: key, tuple: false };
      }
    }
    return expr;
  }

  /** Items up to `close`, for an array or tuple literal, bounded in number. */
  /**
   * An argument or an item: an expression, and `AS name` after it, as ClickHouse reads `f(g(x) AS y, y)`; the
   * name then stands for the expression elsewhere in the statement, as `(expr AS name)` does.
   */
  private argument(): Expr {
    const expr = this.expression();
    const name = this.alias();
    return name === null ? expr : { kind: 'alias', expr, name };
  }

  private items(close: string): Expr[] {
    const items: Expr[] = [];
    if (!this.isOp(close)) {
      do {
        if (items.length >= MAX_ARRAY_LITERAL_ITEMS) throw new HogQLError(`An array or tuple may list at most ${MAX_ARRAY_LITERAL_ITEMS} items.`);
        items.push(this.argument());
      } while (this.isOp(',') && this.advance());
    }
    this.expectOp(close);
    return items;
  }

  private primary(): Expr {
    const token = this.current;
    switch (token.type) {
      case 'number':
        this.advance();
        return { kind: 'constant', value: token.value };
      case 'string':
        this.advance();
        return { kind: 'constant', value: token.value };
      case 'ident': {
        if (!token.quoted) {
          const word = token.value.toLowerCase();
          if (word === 'true' || word === 'false') {
            this.advance();
            return { kind: 'constant', value: word === 'true' };
          }
          if (word === 'null') {
            this.advance();
            return { kind: 'constant', value: null };
          }
          if (word === 'interval') return this.interval();
          const operatorFunction = OPERATOR_WORDS.includes(word) && this.callFollows(word === 'not');
          if (!operatorFunction && ['and', 'or', 'not', 'in', 'like', 'ilike', 'is', 'between', 'as'].includes(word)) this.fail('an expression');
          if (this.callFollows(false)) return this.call();
        }
        this.advance();
        return { kind: 'field', chain: [token.value] };
      }
      case 'tag':
        this.advance();
        return this.nested(() => this.tagExpr(token.tag));
      case 'op':
        if (token.value === '(' && (this.isKeyword('select', 1) || this.isKeyword('with', 1))) {
          this.advance();
          const query = this.nested(() => this.nestedQuery());
          this.expectOp(')');
          return { kind: 'subquery', query };
        }
        if (token.value === '(') {
          this.advance();
          return this.nested(() => this.parenthesisedExpression());
        }
        if (token.value === '[') {
          this.advance();
          return this.nested(() => ({ kind: 'array', items: this.items(']') }));
        }
        if (token.value === '{' && this.placeholders) return this.placeholder();
        return this.fail('an expression');
      default:
        return this.fail('an expression');
    }
  }

  /** After `(`: an expression, `(expr AS name)`, or a tuple of two or more items. */
  private parenthesisedExpression(): Expr {
    const first = this.expression();
    if (this.isKeyword('as')) {
      const name = this.alias()!;
      this.expectOp(')');
      return { kind: 'alias', expr: first, name };
    }
    if (this.isOp(',')) {
      this.advance();
      return { kind: 'tuple', items: [first, ...this.items(')')] };
    }
    this.expectOp(')');
    return first;
  }

  /**
   * A HogQLX tag as PostHog compiles it (posthog/hogql/hogqlx.py): the tuple `('__hx_tag', name, attribute,
   * value, …)`, its children (texts, expressions, tags) as the attribute `children`, a tuple; arrays and tuples in
   * values become tuples too. PostHog's UI renders them; as data they are these tuples.
   */
  private tagExpr(tag: TagToken): Expr {
    if (!HOGQLX_TAGS.includes(tag.name)) {
      throw new HogQLError(`Unknown tag <${tag.name}>: the HogQLX tags are ${HOGQLX_TAGS.map((name) => `<${name}>`).join(', ')}.`);
    }
    const text = (value: string | boolean): Expr => ({ kind: 'constant', value });
    const items: Expr[] = [text('__hx_tag'), text(tag.name)];
    for (const attribute of tag.attributes) {
      const value = attribute.value;
      items.push(text(attribute.name), typeof value === 'string' || value === true ? text(value) : asHogQLX(this.embeddedExpression(value)));
    }
    if (tag.children && tag.children.length > 0) {
      if (tag.attributes.some((attribute) => attribute.name === 'children')) {
        throw new HogQLError("Can't have a HogQLX tag with both children and a 'children' attribute.");
      }
      const children = tag.children.map((child): Expr => {
        if (typeof child === 'string') return text(child);
        if (Array.isArray(child)) return asHogQLX(this.embeddedExpression(child));
        return this.nested(() => this.tagExpr(child));
      });
      items.push(text('children'), { kind: 'tuple', items: children });
    }
    return { kind: 'tuple', items };
  }

  /** The expression of a tag's `{…}`, read from its own tokens by this parser (its placeholders included). */
  private embeddedExpression(tokens: Token[]): Expr {
    const [outerTokens, outerIndex] = [this.tokens, this.index];
    this.tokens = tokens;
    this.index = 0;
    try {
      if (this.atEnd()) this.fail('an expression inside { }');
      const expr = this.expression();
      this.expectEnd();
      return expr;
    } finally {
      this.tokens = outerTokens;
      this.index = outerIndex;
    }
  }

  private placeholder(): Expr {
    this.advance();
    const chain: string[] = [];
    do {
      const token = this.advance();
      if (token.type !== 'ident' || token.quoted) {
        this.index -= 1;
        this.fail('a placeholder name');
      }
      chain.push(token.value);
    } while (this.isOp('.') && this.advance());
    this.expectOp('}');
    if (chain.length > 1 || chain[0] === 'filters') return this.namedPlaceholder(chain);
    const values = this.placeholders!;
    const name = chain[0]!;
    if (!Object.hasOwn(values, name)) throw new HogQLError(`Placeholder {${name}} is not given in values.`);
    return { kind: 'constant', value: values[name]! };
  }

  /** A comparison just read; a query's parser drops one with a date bound that was not given (select/parser.ts). */
  protected compared(comparison: Expr): Expr {
    return comparison;
  }

  /** `{filters}` and `{variables.name}`, which only a query's parser fills (select/parser.ts). */
  protected namedPlaceholder(chain: readonly string[]): Expr {
    throw new HogQLError(`The placeholder {${chain.join('.')}} is not supported here.`);
  }

  private call(): Expr {
    let call = this.plainCall();
    // A parametric aggregate, `quantile(0.9)(x)`: the first list is its parameters.
    if (this.isOp('(') && call.kind === 'call') {
      this.advance();
      const args: Expr[] = [];
      if (!this.isOp(')')) {
        do {
          args.push(this.argument());
        } while (this.isOp(',') && this.advance());
      }
      this.expectOp(')');
      call = { kind: 'call', name: call.name, args, params: call.args };
    }
    if (this.isKeyword('over') && call.kind === 'call') {
      this.advance();
      return { ...call, over: this.nested(() => this.windowSpec()) };
    }
    if (call.kind === 'call' && !call.params) return operatorForm(call.name, call.args) ?? call;
    return call;
  }

  private plainCall(): Expr {
    const name = (this.advance() as { value: string }).value;
    this.expectOp('(');
    return this.nested(() => {
      const args: Expr[] = [];
      if (name.toLowerCase() === 'count' && this.isOp('*')) {
        this.advance();
        this.expectOp(')');
        return { kind: 'call', name, args };
      }
      if (name.toLowerCase() === 'count' && this.isKeyword('distinct')) {
        this.advance();
        const arg = this.expression();
        this.expectOp(')');
        return { kind: 'call', name: 'uniq', args: [arg] };
      }
      const lower = name.toLowerCase();
      if (lower === 'array' || lower === 'tuple') return { kind: lower, items: this.items(')') };
      if (!this.isOp(')')) {
        do {
          args.push(this.argument());
        } while (this.isOp(',') && this.advance());
      }
      this.expectOp(')');
      return { kind: 'call', name, args };
    });
  }

  private interval(): Expr {
    this.advance();
    const token = this.current;
    if (token.type === 'string') {
      this.advance();
      const match = /^\s*(\d+)\s+([A-Za-z]+)\s*$/.exec(token.value);
      const unit = match ? intervalUnit(match[2]!) : undefined;
      if (!match || !unit) throw new HogQLError(`"${token.value}" is not an interval such as '7 day'.`);
      return { kind: 'interval', amount: { kind: 'constant', value: Number(match[1]) }, unit };
    }
    const amount = this.unary();
    const unitToken = this.current;
    const unit = unitToken.type === 'ident' && !unitToken.quoted ? intervalUnit(unitToken.value) : undefined;
    if (!unit) this.fail('an interval unit (second, minute, hour, day, week, month, quarter, year)');
    this.advance();
    return { kind: 'interval', amount, unit };
  }
}

function parserFor(text: string): Parser {
  if (typeof text !== 'string') throw new HogQLError('An expression must be a string.');
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new HogQLError(`An expression may be at most ${MAX_EXPRESSION_LENGTH} characters long.`);
  }
  const parser = new Parser(tokenize(text));
  if (parser.atEnd()) throw new HogQLError('The expression is empty.');
  return parser;
}

/** Parses one expression (a `where` entry, a `hogql` property filter). */
export function parseExpression(text: string): Expr {
  const parser = parserFor(text);
  const expr = parser.expression();
  parser.expectEnd();
  return expr;
}

/** Parses one `select` entry: an expression with an optional `AS name`. */
export function parseSelectItem(text: string): SelectItem {
  const parser = parserFor(text);
  const expr = parser.expression();
  const alias = parser.alias();
  parser.expectEnd();
  return { expr, name: alias ?? text.trim() };
}
