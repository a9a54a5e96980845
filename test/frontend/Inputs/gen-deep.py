"""Writes an NPL program with one construct nested N levels deep.

usage: gen-deep.py KIND N   (KIND: unary paren ternary binary block elseif
                             type graph)
The program is complete (it compiles to C) when N is within the limits.
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "graph":
    # A graph that instantiates itself with a growing argument.
    print("import \"std.np\";")
    print("graph Deep(k: u32) { d = Deep(k + 1); }")
    print("graph Top() { d = Deep(0); }")
    sys.exit(0)
if kind == "unary":
    expr = "~" * n + "1"
elif kind == "paren":
    expr = "(" * n + "1" + ")" * n
elif kind == "ternary":
    expr = "true ? 1 : " * n + "0"
elif kind == "binary":
    expr = " + ".join(["1"] * (n + 1))
else:
    expr = "1"
body = "var x: u32 = %s;" % expr
if kind == "block":
    body = "var x: u32 = 1;" + "{ " * n + "x += 1;" + " }" * n
elif kind == "elseif":
    body = ("var x: u32 = 1;\n    if x == 0 { x = 1; }" +
            " else if x == 1 { x = 2; }" * n)
elif kind == "type":
    body = "var x: " + "[" * n + "u8" + "; 1]" * n + ";"
print("""import "std.np";
element E() {
  in i: pkt;
  out o: pkt;
  handler {
    let p = recv(i);
    %s
    send(o, p);
  }
}
graph G() {
  src = FromDevice(0);
  e = E();
  dst = ToDevice(0);
  src -> e -> dst;
}""" % body)
