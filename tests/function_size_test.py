"""No function in the named sources takes more than 5 parameters or runs past 80 lines.

usage: function_size_test.py FILE_OR_FOLDER...
       function_size_test.py --control   (the negative control: a source with a function over each
                                          limit and one within both must fail, naming the two)

A function is a definition at namespace level, as clang-format lays it out here: a line at
column 0 that holds '(' and whose signature ends in '{', up to the next line that is '}' alone.
Its length counts from the signature's first line to that '}'; a lambda or a local class
inside counts toward it. Each function over a limit is printed as "FAIL: file:line name: why"
and the exit code is 1."""
import glob
import os
import re
import sys

MAX_PARAMETERS = 5
MAX_LINES = 80
NOT_A_FUNCTION = re.compile(r"^(namespace|struct|class|enum|union|using|typedef|template|extern|static_assert|#|//|/\*|\})")


def parameters(signature):
    """The number of parameters in the first top-level parenthesis of `signature`."""
    start = signature.index("(")
    depth, count, empty = 0, 0, True
    for ch in signature[start:]:
        if ch in "(<[{":
            depth += 1
            if depth == 1:
                continue
        elif ch in ")>]}":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and ch == ",":
            count += 1
        elif depth >= 1 and not ch.isspace():
            empty = False
    inside = signature[start + 1:]
    return 0 if empty or inside.lstrip().startswith("void)") else count + 1


def functions(path):
    """(line, name, parameters, lines) of each function defined in `path`."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line or line[0].isspace() or NOT_A_FUNCTION.match(line) or "(" not in line:
            i += 1
            continue
        # The signature runs until a line that ends in '{' (or ';' for a declaration).
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";"):
            i = j + 1
            continue
        signature = " ".join(l.strip() for l in lines[i:j + 1])
        end = j
        while end < len(lines) and lines[end] != "}":
            end += 1
        name = signature[:signature.index("(")].split()[-1] if signature[:signature.index("(")].split() else "?"
        yield i + 1, name, parameters(signature), end - i + 1
        i = end + 1


def main(args):
    files = []
    for arg in args:
        files += sorted(glob.glob(os.path.join(arg, "*.cpp"))) if os.path.isdir(arg) else [arg]
    if not files:
        print("FAIL: no source files in " + " ".join(args))
        return 1
    failed, count = 0, 0
    for path in files:
        for line, name, params, length in functions(path):
            count += 1
            why = []
            if params > MAX_PARAMETERS:
                why.append(f"{params} parameters (at most {MAX_PARAMETERS})")
            if length > MAX_LINES:
                why.append(f"{length} lines (at most {MAX_LINES})")
            if why:
                failed += 1
                print(f"FAIL: {path}:{line} {name}: {', '.join(why)}")
    print(f"{count} functions in {len(files)} files, {failed} over a limit")
    return 1 if failed or count == 0 else 0


def control():
    """A function of 6 parameters and one of 81 lines are named; one within both is not."""
    import contextlib
    import io
    import tempfile
    body = "".join(f"  x += {i};\n" for i in range(MAX_LINES - 3))  # 81 lines in all
    source = ("int six(int a, int b, int c, int d, int e, int f) {\n  return a + b + c + d + e + f;\n}\n\n"
              "int five(int a, int b, int c, int d, int e) {\n  return a + b + c + d + e;\n}\n\n"
              f"int long_one() {{\n  int x = 0;\n{body}  return x;\n}}\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "over.cpp")
        with open(path, "w") as f:
            f.write(source)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = main([path])
    text = out.getvalue()
    want = [f"{path}:1 six: 6 parameters", f"{path}:9 long_one: 81 lines"]
    missing = [w for w in want if w not in text]
    if rc != 1 or missing or "five" in text:
        print(f"FAIL: the control was not caught as it should be (exit {rc}, missing {missing}):\n{text}")
        return 1
    print(f"control: both named, the function within the limits not:\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(control() if sys.argv[1:] == ["--control"] else main(sys.argv[1:]))
