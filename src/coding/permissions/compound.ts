// A compound call (a shell line with several parts) is allowed by rules when every part is either
// allowed by a rule or read-only by the analyser's own verdict for it, the standard that
// auto-allows a whole read-only line: `ls && rm x` needs only `Bash(rm *)`. Deny and ask rules
// are checked before this, against every part, so they still decide first.
//
// Why a read-only part may ride along with rule-allowed ones: as its own call it would be allowed
// anyway, and in the line it does the same, except where the line connects the parts.
// - Shell state: the analyser judged each part from the session's folder and environment. A part
//   that runs in the shell itself (`cd /etc`, `export PATH=…`, `source x`) changes that for the
//   parts after it (`cd /etc && cat passwd`), so when a rule lets such a part run, no part rides free.
// - Data: a read-only part may feed a rule-allowed one (`find . -name '*.o' | xargs rm`,
//   `echo … | sh`). What the allowed program does with its input is what its rule allows; a rule
//   for a program that takes commands on stdin (`Bash(sh)`) already means "run what arrives".
//   The other way round, a read-only part reading what an allowed one wrote reads inside the
//   workspace, as a later call could.

export interface PartFacts<R> {
  /** The allow rule that matches the part, if any. */
  rule?: R;
  /** The analyser's verdict for the part where it stands in the line. */
  readOnly: boolean;
  /** The part may run in the shell itself and change what later parts see. */
  inShell: boolean;
}

export interface Coverage<R> {
  /** True when every part is covered and at least one by a rule (all read-only is not a rules matter). */
  allowed: boolean;
  /** The rules that cover parts, in order, without repeats. */
  rules: R[];
  /** Parts no rule covers that are read-only, so need none. */
  free: number[];
  /** Parts that need a rule and have none. */
  uncovered: number[];
  /** A rule-allowed part that runs in the shell, which keeps read-only parts from riding free. */
  shellChanger?: number;
}

/** Pure: which parts are covered, by which rules, and which are not. */
export function coverParts<R>(parts: readonly PartFacts<R>[]): Coverage<R> {
  const rules: R[] = [];
  const free: number[] = [];
  const uncovered: number[] = [];
  const changer = parts.findIndex((p) => p.rule !== undefined && !p.readOnly && p.inShell);
  parts.forEach((part, i) => {
    if (part.rule !== undefined) {
      if (!rules.includes(part.rule)) rules.push(part.rule);
    } else if (part.readOnly && changer < 0) {
      free.push(i);
    } else {
      uncovered.push(i);
    }
  });
  return {
    allowed: uncovered.length === 0 && rules.length > 0,
    rules,
    free,
    uncovered,
    ...(changer >= 0 ? { shellChanger: changer } : {}),
  };
}

/**
 * The parts that need a new rule for the line to be allowed once those rules exist: the ones
 * nothing covers, and then also the read-only ones when a part that runs in the shell will be
 * rule-allowed (it may change what they do, so they no longer ride free: `cd /etc && cat passwd`).
 */
export function partsNeedingRules<R>(parts: readonly PartFacts<R>[]): number[] {
  const shellChanged = parts.some((p) => !p.readOnly && p.inShell);
  return parts.flatMap((p, i) => (p.rule === undefined && (!p.readOnly || shellChanged) ? [i] : []));
}
