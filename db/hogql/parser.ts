/**
 * The HogQL expression parser: text → typed syntax tree (ast.ts). A subset of ClickHouse's expression grammar, as
 * PostHog's HogQL accepts it in `select` and `where`: literals, fields (`properties.$browser`,
 * `properties['key with spaces']`), arithmetic, comparisons, `and/or/not`, `in`, `like/ilike`, `is [not] null`,
 * `between`, `interval`, and function calls. Anything else is a HogQLError that says where.
 *
 * Precedence, loosest first: or, and, not, comparison (= != < > like in is between), ||, + -, * / %, unary -,
 * member access (. and []).
 */
import type { CompareOp, Expr, IntervalUnit, QueryRef, SelectItem, WindowSpec } from './ast.js';
import { HogQLError } from './errors.js';
import { ownEntry } from './lookup.js';

/** Longest expression accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 10_000;
/** Deepest nesting accepted (parentheses, calls, operators). */
const MAX_DEPTH = 64;

export type Token =
  | { type: 'number'; value: number; text: string; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'ident'; value: string; quoted: boolean; pos: number }
  | { type: 'op'; value: string; pos: number }
  | { type: 'eof'; pos: number };

const OPERATORS = ['==', '!=', '<>', '<=', '>=', '||', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.', '[', ']'];
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
  const tokens: Token[] = [];
  let index = 0;
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
    const operator = (statement ? [...OPERATORS, '{', '}'] : OPERATORS).find((candidate) => text.startsWith(candidate, index));
    if (!operator) throw new HogQLError(`Unexpected character "${char}" at position ${index + 1}.`);
    tokens.push({ type: 'op', value: operator, pos: index });
    index += operator.length;
  }
  tokens.push({ type: 'eof', pos: text.length });
  return tokens;
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
    protected readonly tokens: Token[],
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
    return this.nested(() => this.or());
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
    if (this.isKeyword('not')) {
      this.advance();
      return this.nested(() => ({ kind: 'not', expr: this.not() }));
    }
    return this.comparison();
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
        return { kind: 'compare', op, left, right: this.concat() };
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

  private postfix(): Expr {
    const base = this.primary();
    if (!this.isOp('.') && !this.isOp('[')) return base;
    if (base.kind !== 'field') this.fail('an operator');
    const chain = [...base.chain];
    while (this.isOp('.') || this.isOp('[')) {
      const accessor = (this.advance() as { value: string }).value;
      if (accessor === '.') {
        const token = this.advance();
        if (token.type === 'ident') chain.push(token.value);
        else if (token.type === 'number' && Number.isInteger(token.value)) chain.push(token.value);
        else {
          this.index -= 1;
          this.fail('a name after "."');
        }
      } else {
        const key = this.expression();
        if (key.kind !== 'constant' || (typeof key.value !== 'string' && !Number.isInteger(key.value))) {
          throw new HogQLError('Only a string or an integer constant can go inside [ ].');
        }
        chain.push(key.value as string | number);
        this.expectOp(']');
      }
    }
    return { kind: 'field', chain };
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
          if (['and', 'or', 'not', 'in', 'like', 'ilike', 'is', 'between', 'as'].includes(word)) this.fail('an expression');
          if (this.tokens[this.index + 1]?.type === 'op' && (this.tokens[this.index + 1] as { value: string }).value === '(') {
            return this.call();
          }
        }
        this.advance();
        return { kind: 'field', chain: [token.value] };
      }
      case 'op':
        if (token.value === '(' && (this.isKeyword('select', 1) || this.isKeyword('with', 1))) {
          this.advance();
          const query = this.nested(() => this.nestedQuery());
          this.expectOp(')');
          return { kind: 'subquery', query };
        }
        if (token.value === '(') {
          this.advance();
          const inner = this.expression();
          // `(expr AS name)`: the value of expr, named for the rest of the statement.
          const name = this.alias();
          this.expectOp(')');
          return name === null ? inner : { kind: 'alias', expr: inner, name };
        }
        if (token.value === '{' && this.placeholders) return this.placeholder();
        return this.fail('an expression');
      default:
        return this.fail('an expression');
    }
  }

  private placeholder(): Expr {
    this.advance();
    const token = this.advance();
    if (token.type !== 'ident' || token.quoted) {
      this.index -= 1;
      this.fail('a placeholder name');
    }
    this.expectOp('}');
    const values = this.placeholders!;
    if (!Object.hasOwn(values, token.value)) throw new HogQLError(`Placeholder {${token.value}} is not given in values.`);
    return { kind: 'constant', value: values[token.value]! };
  }

  private call(): Expr {
    let call = this.plainCall();
    // A parametric aggregate, `quantile(0.9)(x)`: the first list is its parameters.
    if (this.isOp('(') && call.kind === 'call') {
      this.advance();
      const args: Expr[] = [];
      if (!this.isOp(')')) {
        do {
          args.push(this.expression());
        } while (this.isOp(',') && this.advance());
      }
      this.expectOp(')');
      call = { kind: 'call', name: call.name, args, params: call.args };
    }
    if (this.isKeyword('over') && call.kind === 'call') {
      this.advance();
      return { ...call, over: this.nested(() => this.windowSpec()) };
    }
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
      if (!this.isOp(')')) {
        do {
          args.push(this.expression());
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
