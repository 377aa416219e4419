/**
 * Reads PostHog's `elements_chain` (the autocaptured DOM path, innermost element first) into element objects as
 * the event listing returns them. Format: elements separated by `;`; each is `tag.class1.class2` then, after
 * `:`, attributes written `name="value"` with `"` escaped as `\"`. Known names (text, href, attr_id,
 * nth-child, nth-of-type) become fields; the rest (attr__class, attr__data-…) go to `attributes`.
 */

export interface ChainElement {
  event: null;
  text: string | null;
  tag_name: string | null;
  attr_class: string[] | null;
  href: string | null;
  attr_id: string | null;
  nth_child: number | null;
  nth_of_type: number | null;
  attributes: Record<string, string>;
  order: number;
}

/** Splits on `separator` outside double-quoted values. */
function splitOutsideQuotes(text: string, separator: string, limit = Infinity): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index < text.length && parts.length < limit - 1; index += 1) {
    const char = text[index];
    if (char === '\\') {
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === separator && !quoted) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const ATTRIBUTE = /([A-Za-z0-9_\-:.$@]+?)="((?:[^"\\]|\\.)*)"/g;

function integerOrNull(value: string | undefined): number | null {
  if (value === undefined || !/^-?\d+$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

function parseElement(text: string, order: number): ChainElement {
  const [head = '', attributesText = ''] = splitOutsideQuotes(text, ':', 2);
  const [tag, ...classes] = head.split('.');
  const found: Record<string, string> = {};
  for (const match of attributesText.matchAll(ATTRIBUTE)) found[match[1]!] = match[2]!.replace(/\\(.)/g, '$1');
  const { text: innerText, href, attr_id: attrId, 'nth-child': nthChild, 'nth-of-type': nthOfType, ...attributes } = found;
  const classList = classes.filter(Boolean);
  return {
    event: null,
    text: innerText ?? null,
    tag_name: tag ? tag : null,
    attr_class: classList.length > 0 ? classList : null,
    href: href ?? null,
    attr_id: attrId ?? null,
    nth_child: integerOrNull(nthChild),
    nth_of_type: integerOrNull(nthOfType),
    attributes,
    order,
  };
}

export function parseElementsChain(chain: string): ChainElement[] {
  if (chain.trim() === '') return [];
  return splitOutsideQuotes(chain, ';')
    .filter((element) => element.trim() !== '')
    .map((element, order) => parseElement(element.trim(), order));
}
