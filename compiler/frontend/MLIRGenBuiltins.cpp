//===- MLIRGenBuiltins.cpp - calls of NPL builtins to np and arith ops ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The builtins of dialects/NP/IR/Builtins.def that are not one np op on
// their arguments (those are MLIRGenOneOpBuiltins.cpp's): an op with
// attributes or constant operands, arith (ArithGen.cpp) where a target has
// no op, and classify and ipclassify, compares on packet bytes compiled
// from their patterns here.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/BodyGen.h"
#include "compiler/frontend/ConstFnRunner.h"
#include "compiler/frontend/IPFilter.h"

using namespace npcc;
using namespace npcc::ast;
namespace np = npcc::np;
using mlir::Value;

/// The device number of a pcap file named by a constant string (Click's
/// FromDump/ToDump), with an output's link type and snap length.
Value BodyGen::namedDevice(const Expr &call) {
  mlir::Location l = loc(call.loc);
  bool send = lookupBuiltin(call.text) == Builtin::DeviceSend;
  auto file = ce.eval(*call.args[0], "file name");
  if (!file)
    return nullptr;
  uint32_t linkType = 0, snaplen = 0;
  if (send) {
    linkType = 1; // DLT_EN10MB
    if (call.args.size() > 2) {
      auto encap = ce.eval(*call.args[2], "link type");
      if (!encap)
        return nullptr;
      std::string name = llvm::StringRef(encap->s).upper();
      if (name == "IP")
        linkType = 12; // DLT_RAW: stored as 101 in the file
      else if (name != "ETHER") {
        sema.error(call.args[2]->loc)
            << "unknown link type '" << encap->s << "'; expected ETHER or IP";
        return nullptr;
      }
    }
    if (call.args.size() > 3) {
      auto n = ce.eval(*call.args[3], "snap length");
      if (!n)
        return nullptr;
      snaplen = (uint32_t)n->i;
    }
  }
  int dev = sema.namedDevice(send, file->s, file->define, linkType, snaplen,
                             call.loc);
  return dev < 0 ? nullptr : i32(l, dev);
}

Value BodyGen::genCall(const Expr &e) {
  mlir::Location l = loc(e.loc);
  // Arguments are evaluated left to right (docs/language.md): each one
  // into a variable of its own before the op that takes them, never as
  // two calls in one argument list, whose order C++ leaves open.
  auto arg = [&](size_t i) { return gen(*e.args[i]); };
  switch (lookupBuiltin(e.text)) {
#define NPL_BUILTIN_LOWERS_TO(Id, Op) case Builtin::Id:
#include "dialects/NP/IR/Builtins.def"
    return genOneOpBuiltin(e);
  case Builtin::Send:
    sendTo(*e.args[0], arg(1), e.loc);
    return nullptr;
  case Builtin::Len:
    if (e.args[0]->ty.kind == Ty::Str) {
      auto c = ce.eval(*e.args[0], "'len' of a string");
      return i32(l, c && c->kind == CValue::Str ? c->s.size() : 0);
    }
    if (e.args[0]->ty.kind == Ty::Queue)
      return queueLength(*e.args[0]);
    if (e.args[0]->ty.kind == Ty::Lpm || e.args[0]->ty.kind == Ty::Hash)
      return genTableCall(e);
    if (e.args[0]->ty.kind == Ty::Array) {
      if (auto c = ce.tryEval(e))
        return i32(l, c->i);
      Binding *bd = lookup(e.args[0]->text);
      uint64_t n = 0;
      if (bd && bd->kind == Binding::Var)
        n = mlir::cast<mlir::MemRefType>(bd->value.getType()).getDimSize(0);
      else if (bd && bd->kind == Binding::State)
        n = mlir::cast<mlir::MemRefType>(stateRef(bd->state).getType())
                .getDimSize(0);
      return i32(l, n);
    }
    return b.create<np::PktLenOp>(l, b.getI32Type(), arg(0));
  case Builtin::Insert:
  case Builtin::Remove:
  case Builtin::Clear:
    return genTableCall(e);
  case Builtin::Load: {
    // The path is known once the element's arguments are: each instance
    // may load its own file.
    auto path = ce.eval(*e.args[0], "file name");
    if (!path || path->kind != CValue::Str)
      return nullptr;
    if (path->s.empty()) {
      sema.error(e.args[0]->loc) << "'load' needs a file name, not \"\"";
      return nullptr;
    }
    b.create<np::HandlerLoadOp>(l, e.args[1]->text, path->s);
    return nullptr;
  }
  case Builtin::Prefix: {
    if (auto c = ce.tryEval(e))
      return constInt(l, b.getI64Type(), c->i);
    // A length above 32 would make a prefix no table accepts: clamp it.
    Value addr = b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), arg(0));
    Value len = b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), arg(1));
    len =
        b.create<mlir::arith::MinUIOp>(l, len, constInt(l, b.getI64Type(), 32));
    Value hi =
        b.create<mlir::arith::ShLIOp>(l, len, constInt(l, b.getI64Type(), 32));
    return b.create<mlir::arith::OrIOp>(l, hi, addr);
  }
  case Builtin::DeviceRecv:
  case Builtin::DeviceSend: {
    bool send = lookupBuiltin(e.text) == Builtin::DeviceSend;
    Value dev = e.args[0]->ty.kind == Ty::Str ? namedDevice(e) : arg(0);
    if (!dev && send)
      return nullptr;
    if (!dev) // reported; a stand-in keeps the body well formed
      return b.create<np::PktNewOp>(l, np::PacketType::get(ctx), i32(l, 0));
    mlir::Operation *op =
        send ? b.create<np::DeviceSendOp>(l, dev, arg(1)).getOperation()
             : b.create<np::DeviceRecvOp>(l, np::PacketType::get(ctx), dev)
                   .getOperation();
    if (e.args[0]->ty.kind == Ty::Str)
      op->setAttr("np.file", b.getUnitAttr());
    return send ? nullptr : op->getResult(0);
  }
  case Builtin::Min:
  case Builtin::Max: {
    Value x = arg(0), y = arg(1);
    return emitMinMax(b, l, lookupBuiltin(e.text) == Builtin::Min,
                      e.ty.isSigned, x, y);
  }
  case Builtin::Classify:
  case Builtin::IPClassify: {
    Value p = arg(0);
    const std::vector<CValue> *patterns = classifierPatterns(e);
    if (!patterns)
      return i32(l, 0);
    return lookupBuiltin(e.text) == Builtin::Classify
               ? genClassify(e, p, *patterns)
               : genIPClassify(e, p, *patterns);
  }
  case Builtin::RecvAny:
    return genRecvAny(e);
  case Builtin::Enqueue:
    return genEnqueue(e);
  case Builtin::Csum: {
    Value p = arg(0), off = arg(1), n = arg(2);
    Value sum =
        b.create<np::PktCsumOp>(l, b.getI32Type(), p, off, n, i32(l, 0));
    return emitCsumFold(b, l, sum);
  }
  case Builtin::CsumFold:
    return emitCsumFold(b, l, arg(0));
  case Builtin::CsumUpdate: {
    Value sum = arg(0), old = arg(1), now = arg(2);
    return emitCsumUpdate(b, l, sum, old, now);
  }
  case Builtin::Crc32:
  case Builtin::Crc32c: {
    bool castagnoli = lookupBuiltin(e.text) == Builtin::Crc32c;
    if (e.args.size() == 3) {
      Value p = arg(0), off = arg(1), n = arg(2);
      return b.create<np::PktCrcOp>(l, b.getI32Type(), p, off, n, castagnoli);
    }
    return b.create<np::CrcOp>(l, b.getI32Type(), arg(0), castagnoli);
  }
  case Builtin::Hash: {
    llvm::SmallVector<Value> xs;
    for (size_t k = 0; k < e.args.size(); ++k)
      xs.push_back(arg(k));
    return emitHash(b, l, xs);
  }
  case Builtin::Clz:
    return emitClz(b, l, arg(0));
  case Builtin::Ctz:
    return emitCtz(b, l, arg(0));
  case Builtin::Popcount:
    return emitPopcount(b, l, arg(0));
  case Builtin::Bswap:
    return emitBswap(b, l, arg(0));
  case Builtin::Print: {
    auto label = [&](const Expr &a) -> std::string {
      auto c = ce.eval(a, "print label");
      return c && c->kind == CValue::Str ? c->s : std::string();
    };
    if (e.args[0]->ty.kind == Ty::Pkt) {
      Value p = arg(0);
      std::string text = e.args.size() > 1 ? label(*e.args[1]) : "";
      // Click's Print shows 24 bytes unless told otherwise.
      Value max = e.args.size() > 2 ? arg(2) : i32(l, 24);
      b.create<np::PrintPktOp>(l, p, max, b.getStringAttr(text));
      return nullptr;
    }
    const Ty &vt = e.args[1]->ty;
    auto op =
        b.create<np::PrintOp>(l, arg(1), b.getStringAttr(label(*e.args[0])));
    if (vt.isSignedInt())
      op.setIsSigned(true);
    return nullptr;
  }
  case Builtin::PktWrite: {
    // The string is a constant: its bytes become pkt_set of 64-bit words
    // (the last one narrower), which write nothing past the frame's end.
    auto c = ce.eval(*e.args[2], "'pkt_write' string");
    std::string s = c && c->kind == CValue::Str ? c->s : std::string();
    Value p = arg(0);
    Value off = b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), arg(1));
    for (size_t k = 0; k < s.size(); k += 8) {
      size_t n = std::min<size_t>(8, s.size() - k);
      uint64_t word = 0;
      for (size_t j = 0; j < n; ++j)
        word = word << 8 | (uint8_t)s[k + j];
      mlir::Type t = b.getIntegerType(8 * n);
      Value at =
          b.create<mlir::arith::AddIOp>(l, off, constInt(l, b.getI64Type(), k));
      b.create<np::PktSetOp>(l, p, at, constInt(l, t, word), 8 * n, 0, nullptr,
                             nullptr);
    }
    return nullptr;
  }
  case Builtin::None:
    if (const ast::FnDecl *f = sema.lookupFn(e.text)) {
      if (!isCompileTimeFn(*f))
        return inlineCall(e, *f);
      sema.error(e.loc) << compileTimeOnlyCall(*f);
      return constInt(l, b.getI32Type(), 0);
    }
    break;
  case Builtin::TryRecv:
  case Builtin::Dequeue: // only in if-let, which Sema checks
  case Builtin::Lookup:
  case Builtin::Accept:
    break;
  }
  sema.error(e.loc) << "unknown function '" << e.text << "'";
  return constInt(l, b.getI32Type(), 0);
}

/// `recv_any(i)`: np.select over every port of the array, then the receive
/// from the port it chose, as a chain of scf.if yielding the value.
Value BodyGen::genRecvAny(const Expr &e) {
  mlir::Location l = loc(e.loc);
  const std::string &array = e.args[0]->text;
  uint64_t n = spec.portArraySizes.lookup(array);
  mlir::Type t = toMLIRType(ctx, e.ty);
  if (n == 0) {
    sema.error(e.args[0]->loc) << "'recv_any' on an empty port array";
    return constInt(l, b.getI32Type(), 0);
  }
  llvm::SmallVector<mlir::Attribute> ports;
  for (uint64_t k = 0; k < n; ++k)
    ports.push_back(mlir::FlatSymbolRefAttr::get(
        ctx, array + "[" + std::to_string(k) + "]"));
  Value pos = b.create<np::SelectOp>(l, b.getI32Type(), b.getArrayAttr(ports));
  // recv from port k, else from the ports after it.
  std::function<Value(uint64_t)> from = [&](uint64_t k) -> Value {
    auto port = mlir::cast<mlir::FlatSymbolRefAttr>(ports[k]).getValue();
    if (k + 1 == n)
      return b.create<np::RecvOp>(l, t, port);
    Value is = b.create<mlir::arith::CmpIOp>(l, mlir::arith::CmpIPredicate::eq,
                                             pos, i32(l, k));
    auto ifOp = b.create<mlir::scf::IfOp>(l, mlir::TypeRange{t}, is,
                                          /*withElse=*/true);
    mlir::OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    b.create<mlir::scf::YieldOp>(l, Value(b.create<np::RecvOp>(l, t, port)));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    b.create<mlir::scf::YieldOp>(l, from(k + 1));
    return ifOp.getResult(0);
  };
  return from(0);
}

/// The pattern strings `classify` and `ipclassify` take: a parameter of
/// the element, constant once it is specialised. Null after an error.
const std::vector<CValue> *BodyGen::classifierPatterns(const Expr &e) {
  Binding *bd = lookup(e.args[1]->text);
  if (!bd || bd->kind != Binding::Const || bd->cval.kind != CValue::List) {
    sema.error(e.args[1]->loc)
        << "'" << e.text << "' needs a parameter holding pattern strings";
    return nullptr;
  }
  return &bd->cval.list;
}

/// Compiles Click classifier patterns into compares at constant offsets: the
/// result is the index of the first matching pattern, or the number of
/// patterns when none matches.
Value BodyGen::genClassify(const Expr &e, Value p,
                           const std::vector<CValue> &pats) {
  mlir::Location l = loc(e.loc);
  Value result = i32(l, pats.size());
  for (size_t k = pats.size(); k-- > 0;) {
    std::vector<PatternClause> clauses;
    std::string err;
    if (!parseClassifierPattern(pats[k].s, clauses, err)) {
      sema.error(pats[k].loc) << "bad classifier pattern: " << err;
      return i32(l, 0);
    }
    Value match = constInt(l, b.getI1Type(), 1);
    for (const PatternClause &c : clauses) {
      // Compare up to 8 bytes at a time.
      for (size_t at = 0; at < c.value.size(); at += 8) {
        size_t n = std::min<size_t>(8, c.value.size() - at);
        uint64_t v = 0, m = 0;
        for (size_t i = 0; i < n; ++i) {
          v = v << 8 | c.value[at + i];
          m = m << 8 | c.mask[at + i];
        }
        if (m == 0)
          continue;
        mlir::Type t = b.getIntegerType(n * 8);
        Value off = constInt(l, b.getI64Type(), c.offset + at);
        Value got =
            b.create<np::PktGetOp>(l, t, p, off, n * 8, 0, nullptr, nullptr);
        if (m != (n == 8 ? ~0ull : (1ull << (n * 8)) - 1))
          got = b.create<mlir::arith::AndIOp>(l, got, constInt(l, t, m));
        // Bytes past the end of a short packet read as 0; a short packet
        // must not match a pattern that needs those bytes.
        Value eq = b.create<mlir::arith::CmpIOp>(
            l, mlir::arith::CmpIPredicate::eq, got, constInt(l, t, v));
        Value need = i32(l, c.offset + at + n);
        Value len = b.create<np::PktLenOp>(l, b.getI32Type(), p);
        Value longEnough = b.create<mlir::arith::CmpIOp>(
            l, mlir::arith::CmpIPredicate::uge, len, need);
        eq = b.create<mlir::arith::AndIOp>(l, eq, longEnough);
        match = b.create<mlir::arith::AndIOp>(l, match, eq);
      }
    }
    result = b.create<mlir::arith::SelectOp>(l, match, i32(l, k), result);
  }
  return result;
}

/// Compiles Click IPClassifier patterns (IPFilter.h) into compares on the
/// IPv4 header at byte 0 and on the transport header after it: the index
/// of the first matching pattern, or the number of patterns.
Value BodyGen::genIPClassify(const Expr &e, Value p,
                             const std::vector<CValue> &pats) {
  mlir::Location l = loc(e.loc);
  std::vector<IPFNode> trees(pats.size());
  for (size_t k = 0; k < pats.size(); ++k) {
    std::string err;
    if (!parseIPFilterPattern(pats[k].s, trees[k], err)) {
      sema.error(pats[k].loc) << "bad IPClassifier pattern: " << err;
      return i32(l, 0);
    }
  }
  Value len = b.create<np::PktLenOp>(l, b.getI32Type(), p);
  Value len64 = b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), len);
  Value transport; // 4 * IHL, as i64
  auto transportOffset = [&]() {
    if (!transport) {
      Value v = b.create<np::PktGetOp>(l, b.getIntegerType(8), p,
                                       constInt(l, b.getI64Type(), 0), 8, 0,
                                       nullptr, nullptr);
      v = b.create<mlir::arith::AndIOp>(l, v,
                                        constInt(l, b.getIntegerType(8), 15));
      v = b.create<mlir::arith::ExtUIOp>(l, b.getI64Type(), v);
      transport =
          b.create<mlir::arith::ShLIOp>(l, v, constInt(l, b.getI64Type(), 2));
    }
    return transport;
  };
  std::function<Value(const IPFNode &)> genNode = [&](const IPFNode &n) {
    switch (n.kind) {
    case IPFNode::True:
    case IPFNode::False:
      return constInt(l, b.getI1Type(), n.kind == IPFNode::True);
    case IPFNode::Not:
      return (Value)b.create<mlir::arith::XOrIOp>(
          l, genNode(n.kids[0]), constInt(l, b.getI1Type(), 1));
    case IPFNode::And:
    case IPFNode::Or: {
      Value x = genNode(n.kids[0]);
      Value y = genNode(n.kids[1]);
      if (n.kind == IPFNode::And)
        return (Value)b.create<mlir::arith::AndIOp>(l, x, y);
      return (Value)b.create<mlir::arith::OrIOp>(l, x, y);
    }
    case IPFNode::Test:
      break;
    }
    const IPFTest &t = n.test;
    mlir::Type ty = b.getIntegerType(t.width * 8);
    Value off = constInt(l, b.getI64Type(), t.offset);
    if (t.transport && t.offset)
      off = b.create<mlir::arith::AddIOp>(l, transportOffset(), off);
    else if (t.transport)
      off = transportOffset();
    Value got =
        b.create<np::PktGetOp>(l, ty, p, off, t.width * 8, 0, nullptr, nullptr);
    if (t.shift)
      got = b.create<mlir::arith::ShRUIOp>(l, got, constInt(l, ty, t.shift));
    if (t.mask != (t.width == 4 ? ~0u : (1u << (t.width * 8)) - 1))
      got = b.create<mlir::arith::AndIOp>(l, got, constInt(l, ty, t.mask));
    auto pred = t.op == IPFTest::Gt   ? mlir::arith::CmpIPredicate::ugt
                : t.op == IPFTest::Lt ? mlir::arith::CmpIPredicate::ult
                                      : mlir::arith::CmpIPredicate::eq;
    Value cmp =
        b.create<mlir::arith::CmpIOp>(l, pred, got, constInt(l, ty, t.value));
    // A test on bytes past the end of the packet is false (Click's rule).
    Value end = constInt(l, b.getI64Type(), t.offset + t.width);
    if (t.transport)
      end = b.create<mlir::arith::AddIOp>(l, transportOffset(), end);
    Value inside = b.create<mlir::arith::CmpIOp>(
        l, mlir::arith::CmpIPredicate::ule, end, len64);
    return (Value)b.create<mlir::arith::AndIOp>(l, inside, cmp);
  };
  Value result = i32(l, pats.size());
  for (size_t k = pats.size(); k-- > 0;)
    result = b.create<mlir::arith::SelectOp>(l, genNode(trees[k]), i32(l, k),
                                             result);
  return result;
}
