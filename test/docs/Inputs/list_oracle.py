"""Reading musim's list and header files and printing its answers, for the
Python oracles of the docs' match programs (tagged-oracle.py,
rank-oracle.py)."""


def read(path):
    rows = []
    for line in open(path):
        line = line.split("#")[0].split()
        if line:
            rows.append([int(w, 16) for w in line])
    return rows


def want(program, list_path, hdr_path):
    """Prints musim's answer (without cycles) for every header: the first
    item, in list order, for which `program(header, item)` is not None."""
    items = read(list_path)
    for k, h in enumerate(read(hdr_path)):
        for i, it in enumerate(items):
            a = program(h, it)
            if a is not None:
                print("header %d: match %d offset %d length %d" % (k, i, a[0], a[1]))
                break
        else:
            print("header %d: no match" % k)
