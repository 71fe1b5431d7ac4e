# SPDX-License-Identifier: GPL-2.0
"""The expectations' little language, without eval: a "met if" or "partly
if" cell of tools/bench/expectations.md is parsed by Python's ast module
and only a whitelist of it is ever run: numbers, strings, comparisons
(chained too), and/or/not, + - * /, unary minus, the name inf and calls
of the functions the caller hands in (m, lo, hi, fin, abs).  Anything
else (attributes, subscripts, lambdas, other names) is refused when the
cell is parsed, before any of it runs, so a typo in the table is
reported instead of executed.

    tree = parse("m('reno','util') >= 0.8", FUNCS, "G1 met if")
    value = run(tree, {"m": ..., ...})

Evaluation follows Python's: left to right, and/or and chained
comparisons stop early (the report lists the metrics an expectation
looked at, so what is not evaluated must not be looked up), and errors
of the functions or of the arithmetic (ZeroDivisionError) go to the
caller unchanged."""
import ast
import operator

INF = float("inf")
CONSTANTS = {"inf": INF}

BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub,
          ast.Mult: operator.mul, ast.Div: operator.truediv}
COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
           ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


MAX_NODES = 300		# the table's longest cell has 37; keeps run()'s recursion shallow


class ExprError(ValueError):
    """A cell outside the whitelist, or not Python at all."""


def parse(text, arity, where):
    """The checked tree of TEXT; ARITY {function name: number of
    arguments} says which calls are allowed; WHERE (e.g. "G1 met if")
    names the cell in the error."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ExprError("%s: not an expression (%s): %s" % (where, e.msg, text)) from None
    except (ValueError, RecursionError, MemoryError) as e:	# null bytes, absurd nesting
        raise ExprError("%s: not an expression (%s)" % (where, e)) from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExprError("%s: longer than %d nodes: %s" % (where, MAX_NODES, text))
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        why = refusal(node, arity, id(node) in callees)
        if why:
            raise ExprError("%s: %s, in: %s" % (where, why, text))
    return tree


ALLOWED = (ast.Expression, ast.Load, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub,
           ast.BinOp, ast.Compare) + tuple(BINOPS) + tuple(COMPARE)
NAMED = {ast.Attribute: "attribute access", ast.Subscript: "a subscript", ast.Lambda: "a lambda",
         ast.UAdd: "unary +", ast.Pow: "**", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
         ast.IsNot: "is not", ast.IfExp: "if-else"}


def refusal(node, arity, callee):
    """Why NODE is not allowed, or None; CALLEE: it is a call's function."""
    if isinstance(node, ALLOWED):
        return None
    if isinstance(node, ast.Constant):
        ok = isinstance(node.value, (int, float, str)) and not isinstance(node.value, bool)
        return None if ok else "constant %r is not allowed" % (node.value,)
    if isinstance(node, ast.Name):
        return name_refusal(node.id, arity, callee)
    if isinstance(node, ast.Call):
        return call_refusal(node, arity)
    return "%s is not allowed" % NAMED.get(type(node), type(node).__name__)


def name_refusal(name, arity, callee):
    if callee:
        return None if name in arity else "'%s' is not a function here" % name
    if name in arity:
        return "'%s' is a function: call it" % name
    return None if name in CONSTANTS else "unknown name '%s'" % name


def call_refusal(node, arity):
    if not isinstance(node.func, ast.Name) or node.func.id not in arity:
        return "only calls of %s are allowed" % ", ".join(sorted(arity))
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return "%s() takes plain arguments only" % node.func.id
    if len(node.args) != arity[node.func.id]:
        return "%s() takes %d argument(s), not %d" % (node.func.id, arity[node.func.id], len(node.args))
    return None


def run(tree, funcs):
    """The value of a tree from parse(); FUNCS {name: callable}."""
    return value(tree.body, funcs)


def value(node, funcs):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return CONSTANTS[node.id]
    if isinstance(node, ast.BinOp):
        return BINOPS[type(node.op)](value(node.left, funcs), value(node.right, funcs))
    if isinstance(node, ast.UnaryOp):
        v = value(node.operand, funcs)
        return (not v) if isinstance(node.op, ast.Not) else -v
    if isinstance(node, ast.BoolOp):
        return boolop(node, funcs)
    if isinstance(node, ast.Compare):
        return compare(node, funcs)
    if isinstance(node, ast.Call):
        return funcs[node.func.id](*[value(a, funcs) for a in node.args])
    raise ExprError("%s is not allowed" % type(node).__name__)	# parse() let it through: a bug


def boolop(node, funcs):
    """Python's: the first operand that decides, or the last."""
    stop_if = isinstance(node.op, ast.Or)
    for operand in node.values:
        v = value(operand, funcs)
        if bool(v) == stop_if:
            return v
    return v


def compare(node, funcs):
    """a < b < c is a < b and b < c, with b evaluated once and c only if
    a < b."""
    left = value(node.left, funcs)
    for op, right_node in zip(node.ops, node.comparators):
        right = value(right_node, funcs)
        if not COMPARE[type(op)](left, right):
            return False
        left = right
    return True
