// Types of host.mjs, the Node.js host of the rootbound module: the calls a
// program makes, and the answers, as PROTOCOL.md describes them.
import type { GlobArgs, GrepArgs, ReadArgs, ListArgs } from './args.js';

export type { GlobArgs, GrepArgs, ReadArgs, ListArgs };

/** A name or a line: text when it is UTF-8, else its bytes in base64. */
export type Data = { text: string } | { bytes: string };

/** A match's place in a line, in bytes. */
export interface Span {
  start: number;
  end: number;
}

/** One result: a path, a line, a count or a listed entry. */
export interface Item {
  path: Data;
  line_number?: number;
  text?: Data;
  submatches?: Span[];
  /** Context lines were asked for and this line does not follow the one before it ("--"). */
  break?: boolean;
  context?: boolean;
  count?: number;
  kind?: 'file' | 'directory' | 'symlink';
  size?: number;
}

/** A path that could not be read; the search went on. */
export interface Problem {
  path: Data;
  code: string;
  message: string;
}

/** Why a call stopped or did not run. */
export interface CallError {
  code: string;
  message: string;
}

/** What was left out, and why. */
export interface Skipped {
  binary: number;
  too_large: number;
  unreadable: number;
  symlink: number;
  special: number;
  ignored: number;
  hidden: number;
  denied: number;
}

/** The end of every answer. */
export interface Done {
  status: 'complete' | 'partial' | 'failed';
  error?: CallError;
  results: number;
  truncated: boolean;
  capped?: boolean;
  next_offset?: number;
  skipped: Skipped;
  stats: { dirs: number; files: number; files_read: number; bytes_read: number };
  ignored_by?: string;
  lines?: number;
}

/** The answer to one call. */
export interface Answer {
  items: Item[];
  problems: Problem[];
  done: Done;
}

export interface CallOptions {
  /** The call's deadline, in milliseconds (the host's timeout when shorter). */
  deadlineMs?: number;
}

/** Calls on one module instance, one at a time, in the order they are made. */
export class Rootbound {
  /**
   * @param roots each root's name (as paths in calls and results name it,
   * e.g. "/workspace") and its directory, the first the default; or one
   * directory, named "/workspace".
   */
  constructor(roots: Record<string, string> | string, options?: { timeoutMs?: number });
  call(tool: 'glob', args: GlobArgs, options?: CallOptions): Promise<Answer>;
  call(tool: 'grep', args: GrepArgs, options?: CallOptions): Promise<Answer>;
  call(tool: 'read', args: ReadArgs, options?: CallOptions): Promise<Answer>;
  call(tool: 'list', args?: ListArgs, options?: CallOptions): Promise<Answer>;
  glob(args: GlobArgs, options?: CallOptions): Promise<Answer>;
  grep(args: GrepArgs, options?: CallOptions): Promise<Answer>;
  read(args: ReadArgs, options?: CallOptions): Promise<Answer>;
  list(args?: ListArgs, options?: CallOptions): Promise<Answer>;
  /** Ends the module's worker once the calls made have answered. */
  close(): Promise<void>;
}
