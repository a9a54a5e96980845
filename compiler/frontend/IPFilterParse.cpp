//===- IPFilterParse.cpp - Click IPClassifier patterns --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads the tcpdump-like patterns of Click's IPClassifier and IPFilter:
//
//   expr    ::= or ['?' expr ':' expr]
//   or      ::= term {('or' | '||') term}
//   term    ::= factor {['and' | '&&'] factor}     juxtaposition is 'and'
//   factor  ::= ('not' | '!') factor | 'true' | 'false' | '(' expr ')'
//             | quals ['&' MASK] [relop] [data]
//
// Qualifiers are src, dst, src and dst, src or dst, ip, a protocol name
// and a type word (host, net, port, proto, frag, unfrag, opt, vers, hl,
// tos, dscp, len, id, ttl, type, win). A term without qualifiers that is
// only data takes its type from the term before it, as in Click:
// `src port 80 or 81`. Port, ICMP type, TCP flag and window tests hold
// only for first fragments (offset 0) of the right protocol.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IPFilter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <cstring>
#include <optional>

using namespace npcc;

namespace {

constexpr int kTcpOrUdp = 256;

enum class Type { None, Host, Net, Proto, Port, Field, Frag, Unfrag, TcpOpt };
enum class SD { None, Src, Dst, Or, And };
enum class Data { None, Int, Addr, Prefix, PortName, IcmpName, OptName };
enum class Rel { Eq, Ne, Gt, Lt, Ge, Le };

struct FieldInfo {
  const char *name;
  bool transport;
  unsigned offset, width, shift;
  uint32_t mask;
  int proto; // the protocol a transport field needs
};

const FieldInfo kFields[] = {
    {"vers", false, 0, 1, 4, 0xf, -1},   {"hl", false, 0, 1, 0, 0xf, -1},
    {"tos", false, 1, 1, 0, 0xff, -1},   {"dscp", false, 1, 1, 2, 0x3f, -1},
    {"len", false, 2, 2, 0, 0xffff, -1}, {"id", false, 4, 2, 0, 0xffff, -1},
    {"ttl", false, 8, 1, 0, 0xff, -1},   {"type", true, 0, 1, 0, 0xff, 1},
    {"win", true, 14, 2, 0, 0xffff, 6},
};

const FieldInfo *fieldNamed(llvm::StringRef w) {
  for (const FieldInfo &f : kFields)
    if (w == f.name)
      return &f;
  return nullptr;
}

/// The names IPFilter gives numbers, by what they name.
enum class Named { Proto, Port, IcmpType, TcpFlag };
struct NamedNumber {
  Named kind;
  const char *name;
  uint32_t value;
};
const NamedNumber kNamedNumbers[] = {
    {Named::Proto, "icmp", 1},
    {Named::Proto, "igmp", 2},
    {Named::Proto, "ipip", 4},
    {Named::Proto, "tcp", 6},
    {Named::Proto, "udp", 17},
    {Named::Proto, "gre", 47},
    {Named::Proto, "esp", 50},
    {Named::Proto, "ah", 51},
    {Named::Proto, "sctp", 132},
    {Named::Port, "ftp", 21},
    {Named::Port, "ssh", 22},
    {Named::Port, "telnet", 23},
    {Named::Port, "smtp", 25},
    {Named::Port, "domain", 53},
    {Named::Port, "dns", 53},
    {Named::Port, "www", 80},
    {Named::Port, "http", 80},
    {Named::Port, "ntp", 123},
    {Named::Port, "snmp", 161},
    {Named::Port, "https", 443},
    {Named::IcmpType, "echo-reply", 0},
    {Named::IcmpType, "unreachable", 3},
    {Named::IcmpType, "sourcequench", 4},
    {Named::IcmpType, "redirect", 5},
    {Named::IcmpType, "echo", 8},
    {Named::IcmpType, "routeradvert", 9},
    {Named::IcmpType, "routersolicit", 10},
    {Named::IcmpType, "timeexceeded", 11},
    {Named::IcmpType, "parameterproblem", 12},
    {Named::IcmpType, "timestamp", 13},
    {Named::IcmpType, "timestamp-reply", 14},
    {Named::IcmpType, "inforeq", 15},
    {Named::IcmpType, "inforeq-reply", 16},
    {Named::IcmpType, "maskreq", 17},
    {Named::IcmpType, "maskreq-reply", 18},
    {Named::TcpFlag, "fin", 0x01},
    {Named::TcpFlag, "syn", 0x02},
    {Named::TcpFlag, "rst", 0x04},
    {Named::TcpFlag, "psh", 0x08},
    {Named::TcpFlag, "ack", 0x10},
    {Named::TcpFlag, "urg", 0x20},
};

/// The number word `w` names as a `kind`, if it is one.
std::optional<uint32_t> numberNamed(Named kind, llvm::StringRef w) {
  for (const NamedNumber &n : kNamedNumbers)
    if (n.kind == kind && w == n.name)
      return n.value;
  return std::nullopt;
}

std::optional<uint32_t> parseInt(llvm::StringRef w) {
  uint64_t v;
  bool bad = w.starts_with_insensitive("0x")
                 ? w.drop_front(2).getAsInteger(16, v)
                 : w.getAsInteger(10, v);
  if (bad || v > 0xffffffffull)
    return std::nullopt;
  return (uint32_t)v;
}

std::optional<uint32_t> parseAddr(llvm::StringRef w) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  w.split(parts, '.');
  if (parts.size() != 4)
    return std::nullopt;
  uint32_t a = 0;
  for (llvm::StringRef p : parts) {
    unsigned v;
    if (p.empty() || p.size() > 3 || p.getAsInteger(10, v) || v > 255)
      return std::nullopt;
    a = a << 8 | v;
  }
  return a;
}

/// A/LEN or A/MASK.
bool parsePrefix(llvm::StringRef w, uint32_t &addr, uint32_t &mask) {
  auto [a, l] = w.split('/');
  if (l.empty())
    return false;
  auto av = parseAddr(a);
  if (!av)
    return false;
  unsigned len;
  if (!l.getAsInteger(10, len)) {
    if (len > 32)
      return false;
    mask = len == 0 ? 0 : ~0u << (32 - len);
  } else if (auto m = parseAddr(l)) {
    mask = *m;
  } else {
    return false;
  }
  addr = *av;
  return true;
}

IPFNode leaf(IPFNode::Kind k) {
  IPFNode n;
  n.kind = k;
  return n;
}
IPFNode testNode(bool transport, unsigned offset, unsigned width,
                 unsigned shift, uint32_t mask, IPFTest::Op op,
                 uint32_t value) {
  IPFNode n = leaf(IPFNode::Test);
  n.test.transport = transport;
  n.test.offset = offset;
  n.test.width = width;
  n.test.shift = shift;
  n.test.mask = mask;
  n.test.op = op;
  n.test.value = value & mask;
  return n;
}
IPFNode notNode(IPFNode a) {
  IPFNode n = leaf(IPFNode::Not);
  n.kids.push_back(std::move(a));
  return n;
}
IPFNode binNode(IPFNode::Kind k, IPFNode a, IPFNode b) {
  IPFNode n = leaf(k);
  n.kids.push_back(std::move(a));
  n.kids.push_back(std::move(b));
  return n;
}

IPFNode firstFragment() {
  return testNode(false, 6, 2, 0, 0x1fff, IPFTest::Eq, 0);
}
IPFNode protoIs(int proto) {
  if (proto == kTcpOrUdp)
    return binNode(IPFNode::Or, protoIs(6), protoIs(17));
  return testNode(false, 9, 1, 0, 0xff, IPFTest::Eq, (uint32_t)proto);
}

struct Prim {
  Type type = Type::None;
  const FieldInfo *field = nullptr;
  SD sd = SD::None;
  int proto = -1;
};

class PatternParser {
public:
  PatternParser(std::vector<std::string> toks, std::string &err)
      : toks(std::move(toks)), err(err) {}

  bool parse(IPFNode &out) {
    if (!expr(out))
      return false;
    if (pos < toks.size())
      return fail("garbage after expression at '" + toks[pos] + "'");
    return true;
  }

private:
  std::vector<std::string> toks;
  size_t pos = 0;
  std::string &err;
  Prim prev;
  bool hasPrev = false;

  bool fail(const std::string &msg) {
    if (err.empty())
      err = msg;
    return false;
  }
  bool at(llvm::StringRef w) const {
    return pos < toks.size() && toks[pos] == w;
  }
  std::string near() const {
    return pos < toks.size() ? "near '" + toks[pos] + "'" : "at the end";
  }
  bool startsFactor() const {
    if (pos >= toks.size())
      return false;
    llvm::StringRef w = toks[pos];
    return w != ")" && w != "or" && w != "||" && w != "?" && w != ":" &&
           w != "and" && w != "&&";
  }

  bool expr(IPFNode &out) {
    IPFNode c;
    if (!orExpr(c))
      return false;
    if (!at("?")) {
      out = std::move(c);
      return true;
    }
    ++pos;
    IPFNode y, n;
    if (!expr(y))
      return false;
    if (!at(":"))
      return fail("':' missing in ternary expression " + near());
    ++pos;
    if (!expr(n))
      return false;
    out = binNode(IPFNode::Or, binNode(IPFNode::And, c, std::move(y)),
                  binNode(IPFNode::And, notNode(c), std::move(n)));
    return true;
  }

  bool orExpr(IPFNode &out) {
    if (!term(out))
      return false;
    while (at("or") || at("||")) {
      ++pos;
      IPFNode r;
      if (!term(r))
        return false;
      out = binNode(IPFNode::Or, std::move(out), std::move(r));
    }
    return true;
  }

  bool term(IPFNode &out) {
    if (!factor(out))
      return false;
    while (true) {
      if (at("and") || at("&&"))
        ++pos;
      else if (!startsFactor())
        return true;
      IPFNode r;
      if (!factor(r))
        return false;
      out = binNode(IPFNode::And, std::move(out), std::move(r));
    }
  }

  bool factor(IPFNode &out) {
    if (!startsFactor())
      return fail("missing term " + near());
    llvm::StringRef w = toks[pos];
    if (w == "not" || w == "!") {
      ++pos;
      IPFNode a;
      if (!factor(a))
        return false;
      out = notNode(std::move(a));
      return true;
    }
    if (w == "true" || w == "false") {
      ++pos;
      out = leaf(w == "true" ? IPFNode::True : IPFNode::False);
      return true;
    }
    if (w == "(") {
      ++pos;
      if (!expr(out))
        return false;
      if (!at(")"))
        return fail("missing ')' " + near());
      ++pos;
      return true;
    }
    return primitive(out);
  }

  bool setType(Prim &p, Type t, const FieldInfo *f, llvm::StringRef w) {
    if (p.type != Type::None)
      return fail("'" + w.str() + "' after another type word");
    p.type = t;
    p.field = f;
    return true;
  }

  bool primitive(IPFNode &out) {
    size_t first = pos;
    Prim p;
    for (; pos < toks.size(); ++pos) {
      llvm::StringRef w = toks[pos];
      if (w == "src") {
        if (pos + 2 < toks.size() &&
            (toks[pos + 2] == "dst" || toks[pos + 2] == "dest") &&
            (toks[pos + 1] == "and" || toks[pos + 1] == "&&" ||
             toks[pos + 1] == "or" || toks[pos + 1] == "||")) {
          p.sd = toks[pos + 1] == "and" || toks[pos + 1] == "&&" ? SD::And
                                                                 : SD::Or;
          pos += 2;
        } else {
          p.sd = SD::Src;
        }
      } else if (w == "dst" || w == "dest") {
        p.sd = SD::Dst;
      } else if (w == "ip") {
      } else if (auto pr = numberNamed(Named::Proto, w)) {
        if (p.proto != -1 && p.proto != (int)*pr)
          return fail("transport protocol specified twice " + near());
        p.proto = (int)*pr;
      } else if (w == "host" || w == "net" || w == "port" || w == "proto" ||
                 w == "frag" || w == "unfrag" || w == "opt") {
        Type t = llvm::StringSwitch<Type>(w)
                     .Case("host", Type::Host)
                     .Case("net", Type::Net)
                     .Case("port", Type::Port)
                     .Case("proto", Type::Proto)
                     .Case("frag", Type::Frag)
                     .Case("unfrag", Type::Unfrag)
                     .Default(Type::TcpOpt);
        if (!setType(p, t, nullptr, w))
          return false;
      } else if (const FieldInfo *f = fieldNamed(w)) {
        if (!setType(p, Type::Field, f, w))
          return false;
      } else {
        break;
      }
    }
    if (pos != first)
      hasPrev = false;

    // Optional '& MASK'.
    std::optional<uint32_t> userMask;
    if (at("&")) {
      ++pos;
      userMask = pos < toks.size() ? parseInt(toks[pos]) : std::nullopt;
      if (!userMask || !*userMask)
        return fail("'&' needs a nonzero integer mask " + near());
      ++pos;
    }

    // Optional relation.
    Rel rel = Rel::Eq;
    bool relGiven = false;
    if (pos < toks.size()) {
      llvm::StringRef w = toks[pos];
      std::optional<Rel> r = llvm::StringSwitch<std::optional<Rel>>(w)
                                 .Cases("=", "==", Rel::Eq)
                                 .Case("!=", Rel::Ne)
                                 .Case(">", Rel::Gt)
                                 .Case("<", Rel::Lt)
                                 .Case(">=", Rel::Ge)
                                 .Case("<=", Rel::Le)
                                 .Default(std::nullopt);
      if (r) {
        rel = *r;
        relGiven = true;
        ++pos;
      }
    }

    // Data.
    Data data = Data::None;
    uint32_t value = 0, netMask = ~0u;
    if (pos < toks.size()) {
      llvm::StringRef w = toks[pos];
      bool anyType = p.type == Type::None;
      bool icmpType = p.type == Type::Field && !strcmp(p.field->name, "type");
      if (auto v = parseInt(w)) {
        data = Data::Int, value = *v;
      } else if (auto v = numberNamed(Named::TcpFlag, w);
                 v && (anyType || p.type == Type::TcpOpt)) {
        data = Data::OptName, value = *v;
      } else if (auto v = numberNamed(Named::IcmpType, w);
                 v && (anyType || icmpType)) {
        data = Data::IcmpName, value = *v;
      } else if (auto v = numberNamed(Named::Port, w);
                 v && (anyType || p.type == Type::Port)) {
        data = Data::PortName, value = *v;
      } else if (auto v = parseAddr(w)) {
        data = Data::Addr, value = *v;
        if (pos + 2 < toks.size() && toks[pos + 1] == "mask") {
          auto m = parseAddr(toks[pos + 2]);
          if (!m)
            return fail("bad mask '" + toks[pos + 2] + "'");
          data = Data::Prefix, netMask = *m;
          pos += 2;
        }
      } else if (parsePrefix(w, value, netMask)) {
        data = Data::Prefix;
      }
      if (data != Data::None)
        ++pos;
      else if (w.contains('/') || w.count('.') == 3)
        return fail("bad address or prefix '" + w.str() + "'");
    }
    if (data == Data::None && relGiven)
      return fail("dangling operator " + near());
    if (pos == first)
      return fail("unknown word '" + toks[pos] + "'");

    // A term of data alone takes its type from the term before it.
    if (p.type == Type::None) {
      switch (data) {
      case Data::Addr:
      case Data::Prefix:
        p.type = data == Data::Addr ? Type::Host : Type::Net;
        if (p.sd == SD::None && hasPrev)
          p.sd = prev.sd;
        break;
      case Data::PortName:
        p.type = Type::Port;
        if (hasPrev && p.sd == SD::None)
          p.sd = prev.sd;
        if (hasPrev && p.proto == -1)
          p.proto = prev.proto;
        break;
      case Data::IcmpName:
        p.type = Type::Field, p.field = fieldNamed("type");
        break;
      case Data::OptName:
        p.type = Type::TcpOpt;
        break;
      case Data::Int:
        if (!hasPrev || (prev.type != Type::Field && prev.type != Type::Proto &&
                         prev.type != Type::Port))
          return fail("specify a header field or 'port' before '" +
                      std::to_string(value) + "'");
        p.type = prev.type, p.field = prev.field;
        if (p.type == Type::Port) {
          if (p.sd == SD::None)
            p.sd = prev.sd;
          if (p.proto == -1)
            p.proto = prev.proto;
        }
        break;
      case Data::None:
        if (p.proto == -1)
          return fail("partial directive " + near());
        p.type = Type::Proto;
        break;
      }
    }

    bool negate = rel == Rel::Ne || rel == Rel::Ge || rel == Rel::Le;
    IPFTest::Op op = rel == Rel::Gt || rel == Rel::Le   ? IPFTest::Gt
                     : rel == Rel::Lt || rel == Rel::Ge ? IPFTest::Lt
                                                        : IPFTest::Eq;
    auto relational = [&](const char *what) {
      return fail(std::string("relational operators can't be used with '") +
                  what + "'");
    };
    auto bySD = [&](IPFNode s, IPFNode d) {
      switch (p.sd) {
      case SD::Src:
        return s;
      case SD::Dst:
        return d;
      case SD::And:
        return binNode(IPFNode::And, std::move(s), std::move(d));
      default:
        return binNode(IPFNode::Or, std::move(s), std::move(d));
      }
    };
    auto applyMask = [&](uint32_t full, uint32_t &m) {
      m = full;
      if (userMask) {
        if (*userMask & ~full)
          return fail("mask " + std::to_string(*userMask) + " out of range");
        m = *userMask;
      }
      return true;
    };
    auto inRange = [&](uint32_t v, uint32_t full) {
      if (v & ~full)
        return fail("value " + std::to_string(v) + " out of range");
      return true;
    };

    switch (p.type) {
    case Type::None:
      break;
    case Type::Host:
    case Type::Net: {
      if (p.type == Type::Host && data != Data::Addr)
        return fail("IP address missing in 'host'");
      if (p.type == Type::Net && data != Data::Addr && data != Data::Prefix)
        return fail("IP prefix missing in 'net'");
      if (op != IPFTest::Eq)
        return relational(p.type == Type::Host ? "host" : "net");
      uint32_t m = userMask ? *userMask : netMask;
      out = bySD(testNode(false, 12, 4, 0, m, IPFTest::Eq, value),
                 testNode(false, 16, 4, 0, m, IPFTest::Eq, value));
      if (negate)
        out = notNode(std::move(out));
      break;
    }
    case Type::Proto: {
      if (data == Data::Int) {
        if (p.proto != -1 && (uint32_t)p.proto != value)
          return fail("transport protocol specified twice");
      } else if (data == Data::None && p.proto != -1) {
        value = (uint32_t)p.proto;
      } else {
        return fail("IP protocol missing in 'proto'");
      }
      uint32_t m;
      if (!inRange(value, 0xff) || !applyMask(0xff, m))
        return false;
      out = testNode(false, 9, 1, 0, m, op, value);
      if (negate)
        out = notNode(std::move(out));
      break;
    }
    case Type::Port: {
      if (data != Data::Int && data != Data::PortName)
        return fail("port number missing in 'port'");
      int proto = p.proto == -1 ? kTcpOrUdp : p.proto;
      if (proto != 6 && proto != 17 && proto != kTcpOrUdp)
        return fail("'port' needs tcp or udp, not protocol " +
                    std::to_string(proto));
      p.proto = proto;
      uint32_t m;
      if (!inRange(value, 0xffff) || !applyMask(0xffff, m))
        return false;
      IPFNode cmp = bySD(testNode(true, 0, 2, 0, m, op, value),
                         testNode(true, 2, 2, 0, m, op, value));
      if (negate)
        cmp = notNode(std::move(cmp));
      out = binNode(IPFNode::And,
                    binNode(IPFNode::And, firstFragment(), protoIs(proto)),
                    std::move(cmp));
      break;
    }
    case Type::Field: {
      const FieldInfo &f = *p.field;
      bool icmpType = !strcmp(f.name, "type");
      if (data != Data::Int && !(icmpType && data == Data::IcmpName))
        return fail(std::string("value missing in '") + f.name + "'");
      uint32_t m;
      if (!inRange(value, f.mask) || !applyMask(f.mask, m))
        return false;
      IPFNode cmp =
          testNode(f.transport, f.offset, f.width, f.shift, m, op, value);
      if (negate)
        cmp = notNode(std::move(cmp));
      if (f.transport) {
        if (p.proto != -1 && p.proto != f.proto)
          return fail(std::string("'") + f.name + "' needs protocol " +
                      std::to_string(f.proto));
        p.proto = f.proto;
        cmp = binNode(IPFNode::And,
                      binNode(IPFNode::And, firstFragment(), protoIs(f.proto)),
                      std::move(cmp));
      }
      out = std::move(cmp);
      break;
    }
    case Type::Frag:
    case Type::Unfrag:
      if (data != Data::None || relGiven || userMask)
        return fail(std::string("'") +
                    (p.type == Type::Frag ? "frag" : "unfrag") +
                    "' takes no value");
      out = testNode(false, 6, 2, 0, 0x3fff, IPFTest::Eq, 0);
      if (p.type == Type::Frag)
        out = notNode(std::move(out));
      break;
    case Type::TcpOpt:
      if (data != Data::OptName && data != Data::Int)
        return fail("TCP flag missing in 'opt'");
      if (relGiven || userMask)
        return relational("tcp opt");
      if (p.proto != -1 && p.proto != 6)
        return fail("'opt' needs tcp");
      if (!inRange(value, 0xff))
        return false;
      p.proto = 6;
      out = binNode(IPFNode::And,
                    binNode(IPFNode::And, firstFragment(), protoIs(6)),
                    testNode(true, 13, 1, 0, value, IPFTest::Eq, value));
      break;
    }
    prev = p;
    hasPrev = true;
    return true;
  }
};

bool tokenize(llvm::StringRef s, std::vector<std::string> &out,
              std::string &err) {
  auto isWord = [](char c) {
    return std::isalnum((unsigned char)c) || c == '-' || c == '.' || c == '/' ||
           c == '_' || c == ':';
  };
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace((unsigned char)c)) {
      ++i;
      continue;
    }
    llvm::StringRef two = s.substr(i, 2);
    if (two == "&&" || two == "||" || two == "<=" || two == ">=" ||
        two == "!=" || two == "==") {
      out.push_back(two.str());
      i += 2;
    } else if (std::strchr("()!<>=&?", c)) {
      out.push_back(std::string(1, c));
      ++i;
    } else if (isWord(c)) {
      size_t j = i;
      while (j < s.size() && isWord(s[j]))
        ++j;
      out.push_back(s.slice(i, j).str());
      i = j;
    } else {
      err = std::string("unexpected character '") + c + "'";
      return false;
    }
  }
  return true;
}

} // namespace

bool npcc::parseIPFilterPattern(llvm::StringRef text, IPFNode &out,
                                std::string &error) {
  error.clear();
  std::vector<std::string> toks;
  if (!tokenize(text, toks, error))
    return false;
  if (toks.empty()) {
    error = "empty pattern; use \"-\" to match every packet";
    return false;
  }
  if (toks.size() == 1 &&
      (toks[0] == "-" || toks[0] == "any" || toks[0] == "all")) {
    out = leaf(IPFNode::True);
    return true;
  }
  PatternParser p(std::move(toks), error);
  return p.parse(out);
}
