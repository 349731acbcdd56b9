/**
 * The trace output channel, switched by `kubeletConfig.trace.server`.
 *
 * vscode-languageclient 11 traces only while its trace channel's log level is
 * Trace, and then reads the setting just for messages/verbose; a real log
 * channel's level is the user's to set, so the setting alone would do nothing.
 * This channel reports Trace while the setting is not "off" (and tells the
 * client when that changes), and writes every line it is given.
 */
import * as vscode from 'vscode';

const SETTING = 'kubeletConfig';

function levelFromSettings(): vscode.LogLevel {
  const value = vscode.workspace.getConfiguration(SETTING).get<string>('trace.server', 'off');
  return value === 'messages' || value === 'verbose' ? vscode.LogLevel.Trace : vscode.LogLevel.Off;
}

export class TraceChannel implements vscode.LogOutputChannel {
  private readonly out: vscode.OutputChannel;
  private readonly changed = new vscode.EventEmitter<vscode.LogLevel>();
  private readonly watch: vscode.Disposable;
  readonly onDidChangeLogLevel = this.changed.event;
  logLevel = levelFromSettings();

  constructor(readonly name: string) {
    this.out = vscode.window.createOutputChannel(name);
    this.watch = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(`${SETTING}.trace.server`)) return;
      const level = levelFromSettings();
      if (level === this.logLevel) return;
      this.logLevel = level;
      this.changed.fire(level);
    });
  }

  private line(kind: string, message: string | Error, args: unknown[]): void {
    const text = message instanceof Error ? (message.stack ?? message.message) : message;
    const extra = args.length ? ' ' + args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : '';
    this.out.appendLine(`[${kind} - ${new Date().toLocaleTimeString()}] ${text}${extra}`);
  }

  trace(message: string, ...args: unknown[]): void { this.line('Trace', message, args); }
  debug(message: string, ...args: unknown[]): void { this.line('Debug', message, args); }
  info(message: string, ...args: unknown[]): void { this.line('Info', message, args); }
  warn(message: string, ...args: unknown[]): void { this.line('Warn', message, args); }
  error(error: string | Error, ...args: unknown[]): void { this.line('Error', error, args); }
  append(value: string): void { this.out.append(value); }
  appendLine(value: string): void { this.out.appendLine(value); }
  replace(value: string): void { this.out.replace(value); }
  clear(): void { this.out.clear(); }
  show(columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserveFocus === 'boolean') this.out.show(columnOrPreserveFocus);
    else this.out.show(columnOrPreserveFocus, preserveFocus);
  }
  hide(): void { this.out.hide(); }
  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
    this.out.dispose();
  }
}
