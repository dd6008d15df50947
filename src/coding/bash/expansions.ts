// Which parameter and arithmetic expansions are inert. Bash evaluates variables inside arithmetic
// (and array subscripts, substring offsets) as expressions recursively, so a variable holding
// `a[$(cmd)]` runs cmd: only literal numbers are accepted there.
import type { Node } from 'web-tree-sitter';

const SAFE_EXPANSION_OPERATORS = new Set(['#', '##', '%', '%%', '/', '//', '/#', '/%', ':-', '-', ':+', '+', '^', '^^', ',', ',,', ':']);
const WHY_OPERATOR: Record<string, string> = {
  '@': '`${var@…}` transformations (like @P prompt expansion) can run commands',
  '!': '`${!var}` indirect expansion evaluates another variable by name',
  '=': '`${var=…}` assigns a shell variable',
  ':=': '`${var:=…}` assigns a shell variable',
};

const ARITH_NODES = new Set(['number', 'binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression']);
const ARITH_ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=', '++', '--']);

/** Undefined when the arithmetic uses literal numbers and non-assigning operators only. */
export function checkArithmetic(node: Node): string | undefined {
  const visit = (n: Node): boolean => {
    for (const child of n.children) {
      if (!child) continue;
      if (child.isNamed ? !ARITH_NODES.has(child.type) : ARITH_ASSIGN.has(child.type)) return false;
      if (!visit(child)) return false;
    }
    return true;
  };
  return visit(node) ? undefined : `arithmetic \`${node.text}\` may assign or evaluate variables`;
}

function checkSubscript(node: Node): string | undefined {
  const index = node.childForFieldName('index');
  if (!index || index.type === 'number' || (index.type === 'word' && /^[@*]$/.test(index.text))) {
    return undefined;
  }
  return `array subscript \`${node.text}\` is evaluated as arithmetic`;
}

/** Operands inside `${…}` (patterns, defaults): nested expansions must be inert too. */
function checkOperand(node: Node, subs: Node[]): string | undefined {
  switch (node.type) {
    case 'command_substitution':
    case 'process_substitution':
      subs.push(node);
      return undefined;
    case 'expansion':
      return checkExpansion(node, subs);
    case 'arithmetic_expansion':
      return checkArithmetic(node);
    default:
      for (const child of node.namedChildren) {
        if (!child) continue;
        const problem = checkOperand(child, subs);
        if (problem) return problem;
      }
      return undefined;
  }
}

/**
 * Variables named like credentials: printing one leaks it as surely as `env` does, which is not
 * read-only either. Classes, each matched on `_`-separated name parts (case-insensitive):
 * - words that mean a secret anywhere in the name (TOKEN, SECRET, PASSWORD/PASSWD/PASSPHRASE,
 *   CREDENTIAL(S), COOKIE, SESSION, PRIVATE_KEY, API_KEY, ACCESS_KEY, BEARER, JWT);
 * - short parts that do only as a whole part: KEY/KEYS, PWD (not `$PWD`/`$OLDPWD`), PASS, PAT,
 *   PIN, OTP, AUTH, CREDS, SALT, HMAC, SIG, DSN (GITHUB_PAT, DB_PWD, SENTRY_DSN, NPM_AUTH);
 * - connection strings that usually embed a password (DATABASE_URL, REDIS_URL, MONGO_URI,
 *   *_CONNECTION_STRING, AMQP_URL).
 * A variable whose value looks like a credential (see isSecretValue) counts too, whatever its name.
 */
const SECRET_VARIABLE =
  /token|secret|passw|passphrase|credential|cookie|session|private_?key|api_?key|access_?key|bearer|jwt|_pwd(?:_|$)|(?:^|_)(?:keys?|pass|pat|pin|otp|auth|creds|salt|hmac|sig|dsn)(?:_|$)|(?:^|_)(?:database|db|redis|mongo(?:db)?|postgres(?:ql)?|pg|mysql|mariadb|amqp|rabbitmq|broker|sql|elasticsearch|es|smtp|ftp)_?(?:url|uri|dsn)(?:_|$)|conn(?:ection)?_?str/i;

export const isSecretVariable = (name: string): boolean => SECRET_VARIABLE.test(name);

/** `${…}` forms: undefined when inert; command substitutions inside are pushed to subs. */
export function checkExpansion(node: Node, subs: Node[]): string | undefined {
  const name = node.namedChildren.find((c) => c?.type === 'variable_name')?.text;
  if (name && isSecretVariable(name)) return `\`$${name}\` may hold a secret`;
  if (node.type === 'simple_expansion') return undefined;
  let substring = false;
  for (const child of node.children) {
    if (!child || child.type === '${' || child.type === '}') continue;
    if (!child.isNamed) {
      if (!SAFE_EXPANSION_OPERATORS.has(child.type)) {
        return WHY_OPERATOR[child.type] ?? `expansion \`${node.text}\` uses an operator the analyser does not accept`;
      }
      if (child.type === ':') substring = true;
      continue;
    }
    if (child.type === 'variable_name' || child.type === 'special_variable_name') continue;
    if (child.type === 'subscript') {
      const problem = checkSubscript(child);
      if (problem) return problem;
      continue;
    }
    if (substring && child.type !== 'number') {
      return `substring offset in \`${node.text}\` is evaluated as arithmetic`;
    }
    const problem = checkOperand(child, subs);
    if (problem) return problem;
  }
  return undefined;
}
