/**
 * Every regular expression literal (and `new RegExp('...')` with a literal string) in a TypeScript file, found by
 * a small lexer: strings, template literals, comments and the division/regex ambiguity (a `/` starts a regex where
 * an expression may start). Good enough for this code base; the audit test checks it finds a known count.
 */
export interface RegexSite {
  file: string;
  line: number;
  source: string;
  flags: string;
}

const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);

export function regexLiterals(file: string, text: string): RegexSite[] {
  const out: RegexSite[] = [];
  let i = 0;
  let line = 1;
  // What came last: 'value' (an identifier, number, `)` or `]`: a `/` divides) or 'operator' (a `/` starts a regex).
  let last: 'value' | 'operator' = 'operator';
  const templateDepth: number[] = []; // brace depth at which each open `${` returns into its template
  let braces = 0;
  const n = text.length;
  const skipString = (q: string): void => {
    i++;
    while (i < n && text[i] !== q) {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') line++;
      i++;
    }
    i++;
  };
  const skipTemplate = (): void => {
    // at a character inside a template literal; stops after the closing backtick or after `${`
    while (i < n) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        templateDepth.push(braces);
        braces++;
        return;
      } else {
        if (c === '\n') line++;
        i++;
      }
    }
  };
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i;
      skipString(c);
      // new RegExp('literal'[, 'flags'])
      const before = text.slice(Math.max(0, start - 16), start);
      if (/new RegExp\(\s*$/.test(before)) {
        try {
          const source = JSON.parse(c === '"' ? text.slice(start, i) : `"${text.slice(start + 1, i - 1).replace(/"/g, '\\"')}"`);
          const flagsMatch = /^\s*,\s*['"]([a-z]*)['"]/.exec(text.slice(i, i + 20));
          out.push({ file, line, source, flags: flagsMatch ? flagsMatch[1] : '' });
        } catch {
          /* not a plain literal */
        }
      }
      last = 'value';
      continue;
    }
    if (c === '`') {
      i++;
      skipTemplate();
      last = 'value';
      continue;
    }
    if (c === '{') {
      braces++;
      i++;
      last = 'operator';
      continue;
    }
    if (c === '}') {
      braces--;
      i++;
      if (templateDepth.length && templateDepth[templateDepth.length - 1] === braces) {
        templateDepth.pop();
        skipTemplate();
        last = 'value';
      } else last = 'operator';
      continue;
    }
    if (c === '/' && last === 'operator') {
      const start = i;
      i++;
      let inClass = false;
      while (i < n) {
        const d = text[i];
        if (d === '\\') i += 2;
        else if (d === '[') (inClass = true), i++;
        else if (d === ']') (inClass = false), i++;
        else if (d === '/' && !inClass) break;
        else if (d === '\n') break; // not a regex after all
        else i++;
      }
      if (text[i] !== '/') {
        i = start + 1;
        last = 'operator';
        continue;
      }
      const source = text.slice(start + 1, i);
      i++;
      let flags = '';
      while (i < n && /[a-z]/.test(text[i])) flags += text[i++];
      out.push({ file, line, source, flags });
      last = 'value';
      continue;
    }
    if (/[A-Za-z0-9_$]/.test(c)) {
      let j = i;
      while (j < n && /[A-Za-z0-9_$]/.test(text[j])) j++;
      const word = text.slice(i, j);
      i = j;
      last = REGEX_AFTER_WORD.has(word) ? 'operator' : 'value';
      continue;
    }
    if (c === ')' || c === ']') {
      i++;
      last = 'value';
      continue;
    }
    i++;
    last = 'operator';
  }
  return out;
}
