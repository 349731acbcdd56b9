import type { Range, Span } from './range.ts';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface TextEdit {
  file: string;
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** True when this is the one obvious fix (an editor may apply it as preferred). */
  preferred?: boolean;
}

/** Something a rule or parser says about the files, at a place in one of them. */
export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  range: Range;
  /** Other places that explain the finding (the value it conflicts with, ...). */
  related?: { span: Span; message: string }[];
  fixes?: Fix[];
  /**
   * How an editor may mark the range: 'deprecated' (struck through) only for what is removed or
   * scheduled for removal in a known version, not for what merely has a better place; 'unnecessary'
   * (greyed out) for text that has no effect.
   */
  tags?: ('deprecated' | 'unnecessary')[];
}

export function finding(
  code: string,
  severity: Severity,
  span: Span,
  message: string,
  extra?: Pick<Finding, 'related' | 'fixes' | 'tags'>,
): Finding {
  return { code, severity, message, file: span.file, range: span.range, ...extra };
}
