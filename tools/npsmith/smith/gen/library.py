"""The library elements a generated graph instantiates: each entry makes
an instance's arguments and says how many pkt outputs it then has, and
which bytes of a packet its arguments look at (hints for the traffic)."""
from .element import CLASSIFIER, IPCLASSIFIER


def _pats(rng, pool, lo=1, hi=4):
    return [rng.choice(pool) for _ in range(rng.randint(lo, hi))]


def _quote(pats):
    return ", ".join('"%s"' % p for p in pats)


def classifier(rng):
    pats = _pats(rng, CLASSIFIER)
    return "Classifier", _quote(pats), len(pats), pats


def ipclassifier(rng):
    pats = _pats(rng, IPCLASSIFIER)
    return "IPClassifier", _quote(pats), len(pats), []


def fixed(name, outs, args=""):
    return lambda rng: (name, args(rng) if callable(args) else args, outs, [])


def with_n(name, pre=lambda rng: [], lo=1, hi=3):
    def make(rng):
        n = rng.randint(lo, hi)
        return name, ", ".join([str(a) for a in pre(rng)] + [str(n)]), n, []
    return make


ENTRIES = [
    fixed("Counter", None),
    fixed("Null", None),
    fixed("AverageCounter", None),
    fixed("EtherMirror", None),
    fixed("SetIPChecksum", None),
    fixed("Paint", None, lambda rng: str(rng.randint(0, 255))),
    fixed("Strip", None, lambda rng: str(rng.choice([0, 1, 14, 20, 60]))),
    fixed("Unstrip", None, lambda rng: str(rng.choice([0, 1, 14, 40]))),
    fixed("Truncate", None, lambda rng: str(rng.choice([0, 14, 60, 1500]))),
    fixed("SetIPAddress", None, lambda rng: "10.0.0.%d" % rng.randint(0, 255)),
    fixed("EtherEncap", None, lambda rng: "0x%04x, 00:01:02:03:04:05, "
          "ff:ff:ff:ff:ff:ff" % rng.choice([0x0800, 0x0806, 0x86dd])),
    with_n("Tee", lo=1, hi=3),
    with_n("RoundRobinSwitch"),
    with_n("StaticSwitch", lambda rng: [rng.randint(-1, 3)]),
    with_n("HashSwitch", lambda rng: [rng.choice([0, 6, 26, 30]),
                                      rng.choice([1, 2, 4, 8])]),
    with_n("CheckPaint", lambda rng: [rng.randint(0, 3)], 2, 3),
    with_n("CheckLength", lambda rng: [rng.choice([60, 64, 1500, 9000])]),
    with_n("DropBroadcasts", lo=2, hi=2),
    fixed("PaintTee", 2, lambda rng: str(rng.randint(0, 3))),
    fixed("DecIPTTL", 2),
    fixed("CheckIPHeader", 2),
    classifier,
    ipclassifier,
]


def pick(rng):
    """(element, argument text, number of outputs or None for one `o`,
    classifier patterns)."""
    return rng.choice(ENTRIES)(rng)
