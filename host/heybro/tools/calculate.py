"""`calculate`: arithmetic on decimals, parsed with ast and walked by hand — never eval.

Decimal, not float: 19.99 * 3 is 59.97, as a person expects of prices. Sizes are bounded (the
expression's length, its nodes, exponents, the result's magnitude) so no call can run for long.
"""

from __future__ import annotations

import ast
import decimal
from collections.abc import Callable
from decimal import Decimal


from ..tool_def.errors import ToolFailed
from .builtins import CALCULATE_ALLOWED as ALLOWED, CALCULATE_MAX_CHARS as MAX_CHARS, Calculate
from .tool import ToolContext

MAX_NODES = 300
MAX_EXPONENT = 1000


_CONTEXT = decimal.Context(prec=34, Emax=10_000, Emin=-10_000,
                           traps=[decimal.Overflow, decimal.InvalidOperation,
                                  decimal.DivisionByZero])


def _floor_div(a: Decimal, b: Decimal) -> Decimal:
    return (a / b).to_integral_value(rounding=decimal.ROUND_FLOOR)


def _power(a: Decimal, b: Decimal) -> Decimal:
    if abs(b) > MAX_EXPONENT:
        raise ToolFailed("tool_error", f"exponent {b} is too large (at most {MAX_EXPONENT})")
    return a ** b


_BINARY: dict[type[ast.operator], Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: _floor_div,
    ast.Mod: lambda a, b: a - b * _floor_div(a, b),  # Python's sign rule: follows the divisor
    ast.Pow: _power,
}


def _round(x: Decimal, digits: Decimal = Decimal(0)) -> Decimal:
    if digits != digits.to_integral_value() or not -30 <= digits <= 30:
        raise ToolFailed("tool_error", "round(x, digits): digits must be a whole number from "
                          "-30 to 30")
    return x.quantize(Decimal(1).scaleb(-int(digits)), rounding=decimal.ROUND_HALF_UP)  # 1.25 → 1.3, as people round


def _sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise ToolFailed("tool_error", f"sqrt of a negative number ({x})")
    return x.sqrt()


_FUNCTIONS: dict[str, tuple[Callable[..., Decimal], int, int]] = {  # name: (fn, min args, max)
    "round": (_round, 1, 2), "abs": (abs, 1, 1), "sqrt": (_sqrt, 1, 1),
    "min": (lambda *a: min(a), 1, 50), "max": (lambda *a: max(a), 1, 50),
}


def _eval(node: ast.AST) -> Decimal:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return Decimal(repr(node.value))  # repr: 0.1 stays 0.1, not its binary neighbour
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_eval(node.left), _eval(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        fn, least, most = _FUNCTIONS[node.func.id]
        if node.keywords or not least <= len(node.args) <= most:
            raise ToolFailed("tool_error", f"{node.func.id}() takes {least}"
                              f"{'' if least == most else f' to {most}'} plain argument(s)")
        return fn(*(_eval(a) for a in node.args))
    raise ToolFailed("tool_error", f"{_describe(node)} is not allowed; use only {ALLOWED}")


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        return f"the value {node.value!r}"
    if isinstance(node, ast.Name):
        return f"the name {node.id!r}"
    if isinstance(node, ast.Call):
        return f"calling {ast.unparse(node.func)!r}"
    if isinstance(node, ast.BinOp | ast.UnaryOp | ast.BoolOp | ast.Compare):
        op = getattr(node, "op", None) or getattr(node, "ops", [None])[0]
        return f"the operator {type(op).__name__}"
    if isinstance(node, ast.Attribute):
        return f"the attribute .{node.attr}"
    return repr(ast.unparse(node))


def _format(value: Decimal) -> str:
    if value == value.to_integral_value() and abs(value) < Decimal(10) ** 34:
        return str(value.quantize(Decimal(1)))
    return format(value.normalize(), "f") if abs(value.adjusted()) < 40 else str(value.normalize())


def evaluate(expression: str) -> str:
    """The expression's value as text, or ToolFailed saying what is wrong with it."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as err:
        raise ToolFailed("tool_error", f"not a valid expression (at character "
                          f"{err.offset or 0}): {expression!r}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ToolFailed("tool_error", f"expression too long (at most {MAX_NODES} parts)")
    try:
        with decimal.localcontext(_CONTEXT):
            return _format(_eval(tree))
    except decimal.DivisionByZero:
        raise ToolFailed("tool_error", "division by zero") from None
    except decimal.Overflow:
        raise ToolFailed("tool_error", "the result is too large") from None
    except decimal.InvalidOperation:
        raise ToolFailed("tool_error", "undefined result (0/0, 0 % 0, or a fractional power of "
                          "a negative number)") from None


async def run(args: Calculate, ctx: ToolContext) -> str:
    return f"{args.expression.strip()} = {evaluate(args.expression)}"

