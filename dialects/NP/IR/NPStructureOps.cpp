//===- NPStructureOps.cpp - elements, ports, state, regions ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Verifiers and builders of the ops that make up an element. This file also
// holds the generated op definitions of the whole dialect.
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace npcc::np;

//===----------------------------------------------------------------------===//
// ElementOp
//===----------------------------------------------------------------------===//

void ElementOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                      StringAttr origin, DictionaryAttr params) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  if (origin)
    state.addAttribute(getOriginAttrName(state.name), origin);
  if (params)
    state.addAttribute(getParamsAttrName(state.name), params);
  state.addRegion()->emplaceBlock();
}

PortOp ElementOp::lookupPort(StringRef name) {
  return dyn_cast_or_null<PortOp>(
      mlir::SymbolTable::lookupSymbolIn(getOperation(), name));
}

template <typename OpTy> static OpTy findFirst(Block *block) {
  auto ops = block->getOps<OpTy>();
  return ops.empty() ? OpTy() : *ops.begin();
}

InitOp ElementOp::getInit() { return findFirst<InitOp>(getBody()); }
HandlerOp ElementOp::getHandler() { return findFirst<HandlerOp>(getBody()); }
SignalOp ElementOp::getSignal() { return findFirst<SignalOp>(getBody()); }
TimerOp ElementOp::getTimer() { return findFirst<TimerOp>(getBody()); }
FiniOp ElementOp::getFini() { return findFirst<FiniOp>(getBody()); }

/// Records body `op` under `key`; a second body with the same key is an
/// error, `what` naming it.
static LogicalResult defineOnce(llvm::StringMap<Operation *> &seen,
                                StringRef key, Operation *op,
                                const Twine &what) {
  auto [it, fresh] = seen.try_emplace(key, op);
  if (fresh)
    return success();
  InFlightDiagnostic diag = op->emitOpError(what) << " is defined twice";
  diag.attachNote(it->second->getLoc()) << "first defined here";
  return diag;
}

LogicalResult ElementOp::verify() {
  Operation *first[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  llvm::StringMap<Operation *> controls, pushes;
  for (Operation &op : *getBody()) {
    if (isa<PortOp, StateOp>(op))
      continue;
    if (auto push = dyn_cast<PushOp>(op)) {
      if (failed(defineOnce(pushes, push.getPort(), &op,
                            "for port '" + push.getPort() + "'")))
        return failure();
      continue;
    }
    if (auto c = dyn_cast<ControlOp>(op)) {
      if (failed(defineOnce(controls,
                            (c.getWrite() ? "w:" : "r:") + c.getName().str(),
                            &op, "handler '" + c.getName() + "'")))
        return failure();
      continue;
    }
    int kind = isa<InitOp>(op)      ? 0
               : isa<HandlerOp>(op) ? 1
               : isa<SignalOp>(op)  ? 2
               : isa<TimerOp>(op)   ? 3
               : isa<FiniOp>(op)    ? 4
                                    : -1;
    if (kind < 0) {
      InFlightDiagnostic diag = emitOpError()
                                << "may contain only 'np.port', 'np.state', "
                                   "'np.init', 'np.handler', 'np.signal', "
                                   "'np.timer', 'np.fini', 'np.control' and "
                                   "'np.push', found '"
                                << op.getName() << "'";
      diag.attachNote(op.getLoc()) << "found here";
      return diag;
    }
    if (first[kind]) {
      InFlightDiagnostic diag = emitOpError()
                                << "has more than one '" << op.getName() << "'";
      diag.attachNote(op.getLoc()) << "second one here";
      return diag;
    }
    first[kind] = &op;
  }
  if (!first[1])
    return emitOpError() << "has no 'np.handler'";
  return success();
}

// One copy of the shared states serves every element of a source name, so
// they must declare the same ones. Each element is compared with the first
// of its source name in the module.
LogicalResult ElementOp::verifySymbolUses(SymbolTableCollection &symbols) {
  ElementOp first;
  for (auto other : (*this)->getBlock()->getOps<ElementOp>())
    if (other.getSourceName() == getSourceName()) {
      first = other;
      break;
    }
  if (!first || first == *this)
    return success();
  auto sharedIn = [&](ElementOp element, StringAttr name) {
    auto st = dyn_cast_or_null<StateOp>(symbols.lookupSymbolIn(element, name));
    return st && st.getShared() ? st : StateOp();
  };
  for (StateOp mine : getBody()->getOps<StateOp>()) {
    if (!mine.getShared())
      continue;
    StateOp theirs = sharedIn(first, mine.getSymNameAttr());
    if (theirs && theirs.getType() == mine.getType() &&
        theirs.getInitialValueAttr() == mine.getInitialValueAttr())
      continue;
    InFlightDiagnostic diag = mine.emitOpError()
                              << (theirs ? "differs from" : "is not")
                              << " the shared state of '" << first.getSymName()
                              << "', the first element of source name '"
                              << getSourceName() << "'";
    diag.attachNote(theirs ? theirs.getLoc() : first.getLoc())
        << (theirs ? "that state is declared here" : "that element is here");
    return diag;
  }
  for (StateOp theirs : first.getBody()->getOps<StateOp>()) {
    if (!theirs.getShared() || sharedIn(*this, theirs.getSymNameAttr()))
      continue;
    InFlightDiagnostic diag = emitOpError()
                              << "lacks shared state '" << theirs.getSymName()
                              << "' of '" << first.getSymName()
                              << "', the first element of source name '"
                              << getSourceName() << "'";
    diag.attachNote(theirs.getLoc()) << "declared here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PortOp
//===----------------------------------------------------------------------===//

LogicalResult PortOp::verify() {
  Type type = getType();
  if (!isa<PacketType>(type) && !type.isSignlessInteger())
    return emitOpError() << "type must be '!np.pkt' or a signless integer, "
                            "found "
                         << type;
  return success();
}

//===----------------------------------------------------------------------===//
// StateOp
//===----------------------------------------------------------------------===//

/// The tensor type an initial value of a state of type `type` has, or null
/// when `type` is not a valid state type.
static RankedTensorType getInitialValueType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return {};
  return RankedTensorType::get(memref.getShape(), memref.getElementType());
}

/// `memref<4xi32> (= dense<...>)?`; the initial value's type is implied.
static ParseResult parseStateTypeAndInitialValue(OpAsmParser &parser,
                                                 TypeAttr &typeAttr,
                                                 ElementsAttr &initialValue) {
  Type type;
  if (parser.parseType(type))
    return failure();
  typeAttr = TypeAttr::get(type);
  if (failed(parser.parseOptionalEqual()))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (RankedTensorType valueType = getInitialValueType(type)) {
    if (parser.parseAttribute(value, valueType))
      return failure();
  } else if (parser.parseAttribute(value)) {
    return failure();
  }
  initialValue = dyn_cast<ElementsAttr>(value);
  if (!initialValue)
    return parser.emitError(loc, "initial value must be an elements attribute");
  return success();
}

static void printStateTypeAndInitialValue(OpAsmPrinter &printer, StateOp,
                                          TypeAttr typeAttr,
                                          ElementsAttr initialValue) {
  printer << typeAttr.getValue();
  if (!initialValue)
    return;
  printer << " = ";
  if (initialValue.getType() == getInitialValueType(typeAttr.getValue()))
    printer.printAttributeWithoutType(initialValue);
  else
    printer.printAttribute(initialValue);
}

LogicalResult StateOp::verify() {
  auto memref = dyn_cast<MemRefType>(getType());
  if (!memref || !memref.hasStaticShape() || memref.getRank() < 1 ||
      !memref.getElementType().isSignlessInteger() ||
      !memref.getLayout().isIdentity())
    return emitOpError() << "type must be a statically shaped memref of "
                            "signless integers, found "
                         << getType();
  if (ElementsAttr value = getInitialValueAttr()) {
    if (value.getShapedType() != getInitialValueType(memref))
      return emitOpError() << "initial value of type " << value.getShapedType()
                           << " does not match the state type " << memref;
  }
  if (std::optional<StringRef> merge = getMerge()) {
    static const char *const ops[] = {"sum",  "or",   "umax",
                                      "smax", "umin", "smin"};
    if (llvm::find(ops, *merge) == std::end(ops))
      return emitOpError() << "unknown merge \"" << *merge
                           << "\"; expected sum, or, umax, smax, umin or smin";
    if (getShared())
      return emitOpError() << "shared state has one copy and cannot merge";
    if (memref.getElementTypeBitWidth() > 64)
      return emitOpError() << "merged state holds at most 64-bit integers";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// StateRefOp
//===----------------------------------------------------------------------===//

/// `op` names state `name` of its element and has the state's type.
static LogicalResult verifyStateUse(Operation *op, FlatSymbolRefAttr name,
                                    Type type,
                                    SymbolTableCollection &symbolTable) {
  auto element = op->getParentOfType<ElementOp>();
  if (!element)
    return op->emitOpError() << "must be nested in an 'np.element'";
  auto state =
      dyn_cast_or_null<StateOp>(symbolTable.lookupSymbolIn(element, name));
  if (!state)
    return op->emitOpError() << "'" << name.getValue()
                             << "' does not name an 'np.state' of element '"
                             << element.getSymName() << "'";
  if (type != state.getType()) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "result type " << type
                              << " does not match the type " << state.getType()
                              << " of state '" << name.getValue() << "'";
    diag.attachNote(state.getLoc()) << "declared here";
    return diag;
  }
  return success();
}

LogicalResult StateRefOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyStateUse(*this, getStateAttr(), getType(), symbolTable);
}

//===----------------------------------------------------------------------===//
// InitOp, HandlerOp, SignalOp
//===----------------------------------------------------------------------===//

void InitOp::build(OpBuilder &builder, OperationState &state) {
  ensureTerminator(*state.addRegion(), builder, state.location);
}

void HandlerOp::build(OpBuilder &builder, OperationState &state) {
  ensureTerminator(*state.addRegion(), builder, state.location);
}

void TimerOp::build(OpBuilder &builder, OperationState &state, int64_t period) {
  state.addAttribute(getPeriodAttrName(state.name),
                     builder.getI64IntegerAttr(period));
  ensureTerminator(*state.addRegion(), builder, state.location);
}

void FiniOp::build(OpBuilder &builder, OperationState &state) {
  ensureTerminator(*state.addRegion(), builder, state.location);
}

void ControlOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                      bool write, uint32_t resultKind,
                      ArrayRef<int32_t> paramKinds,
                      ArrayRef<int64_t> paramDefaults) {
  state.addAttribute(getNameAttrName(state.name), builder.getStringAttr(name));
  if (write)
    state.addAttribute(getWriteAttrName(state.name), builder.getUnitAttr());
  state.addAttribute(getResultKindAttrName(state.name),
                     builder.getI32IntegerAttr(resultKind));
  state.addAttribute(getParamKindsAttrName(state.name),
                     builder.getDenseI32ArrayAttr(paramKinds));
  state.addAttribute(getParamDefaultsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(paramDefaults));
  ensureTerminator(*state.addRegion(), builder, state.location);
}

LogicalResult ControlOp::verify() {
  if (getName().empty())
    return emitOpError("needs a name");
  if (getParamKinds().size() != getParamDefaults().size())
    return emitOpError("needs one default per parameter kind");
  if (!getWrite() && !getParamKinds().empty())
    return emitOpError("a read handler takes no parameters");
  if (getParamKinds().size() > 16)
    return emitOpError("takes at most 16 parameters");
  bool hasResult = false;
  getBody()->walk([&](HandlerResultOp) { hasResult = true; });
  if (getWrite() && hasResult)
    return emitOpError("a write handler gives no result");
  return success();
}

void PushOp::build(OpBuilder &builder, OperationState &state, StringRef port) {
  state.addAttribute(getPortAttrName(state.name),
                     FlatSymbolRefAttr::get(builder.getContext(), port));
  state.addRegion();
}

void SignalOp::build(OpBuilder &builder, OperationState &state) {
  Region *body = state.addRegion();
  body->emplaceBlock().addArgument(builder.getI64Type(), state.location);
  ensureTerminator(*body, builder, state.location);
}

/// The body of `op` takes an optional `!np.self` and then `rest`.
static LogicalResult verifyBodyArguments(Operation *op, TypeRange rest,
                                         StringRef restText) {
  Block &body = op->getRegion(0).front();
  SmallVector<Type> types(body.getArgumentTypes());
  ArrayRef<Type> args(types);
  bool self = !args.empty() && isa<SelfType>(args.front());
  if (TypeRange(args.drop_front(self ? 1 : 0)) != rest)
    return op->emitOpError() << "body must take an optional '!np.self' "
                                "followed by "
                             << restText;
  for (Type t : args.drop_front(self ? 1 : 0))
    if (isa<SelfType>(t))
      return op->emitOpError() << "'!np.self' must be the first argument";
  return success();
}

static BlockArgument selfOf(Block &body) {
  if (body.getNumArguments() && isa<SelfType>(body.getArgument(0).getType()))
    return body.getArgument(0);
  return {};
}

LogicalResult InitOp::verifyRegions() {
  return verifyBodyArguments(*this, {}, "no arguments");
}
LogicalResult HandlerOp::verifyRegions() {
  return verifyBodyArguments(*this, {}, "no arguments");
}
LogicalResult SignalOp::verifyRegions() {
  Type i64 = IntegerType::get(getContext(), 64);
  return verifyBodyArguments(*this, i64,
                             "exactly one argument, of type "
                             "'i64'");
}

BlockArgument InitOp::getSelf() { return selfOf(*getBody()); }
BlockArgument HandlerOp::getSelf() { return selfOf(*getBody()); }
BlockArgument SignalOp::getSelf() { return selfOf(*getBody()); }
BlockArgument TimerOp::getSelf() { return selfOf(*getBody()); }
BlockArgument FiniOp::getSelf() { return selfOf(*getBody()); }
LogicalResult FiniOp::verifyRegions() {
  return verifyBodyArguments(*this, {}, "no arguments");
}
BlockArgument ControlOp::getSelf() { return selfOf(*getBody()); }
LogicalResult ControlOp::verifyRegions() {
  return verifyBodyArguments(*this, {}, "no arguments");
}
LogicalResult TimerOp::verifyRegions() {
  return verifyBodyArguments(*this, {}, "no arguments");
}

BlockArgument PushOp::getSelf() { return selfOf(*getBody()); }
BlockArgument PushOp::getValue() {
  return getBody()->getArgument(getBody()->getNumArguments() - 1);
}

LogicalResult PushOp::verifyRegions() {
  Block &body = *getBody();
  unsigned self = selfOf(body) ? 1 : 0;
  if (body.getNumArguments() != self + 1 ||
      isa<SelfType>(body.getArguments().back().getType()))
    return emitOpError() << "body must take an optional '!np.self' followed "
                            "by the value, of the port's type";
  // A push body is a call its sender waits for: it is handed its value
  // and must return.
  WalkResult r = body.walk([&](Operation *op) {
    if (!isa<RecvOp, SelectOp, DeviceRecvOp, FinishOp>(op))
      return WalkResult::advance();
    InFlightDiagnostic diag =
        emitOpError() << "body must not "
                      << (isa<FinishOp>(op) ? "end its instance"
                                            : "receive: the value is its "
                                              "argument")
                      << ", found '" << op->getName() << "'";
    diag.attachNote(op->getLoc()) << "found here";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}

LogicalResult ElementOp::verifyPushCall(Operation *caller, StringRef port,
                                        Type type) {
  for (auto push : getBody()->getOps<PushOp>()) {
    if (push.getPort() != port)
      continue;
    if (push.getValue().getType() == type)
      return success();
    InFlightDiagnostic diag =
        caller->emitOpError()
        << "operand type " << type << " does not match the type "
        << push.getValue().getType() << " the 'np.push' body takes";
    diag.attachNote(push.getLoc()) << "push body here";
    return diag;
  }
  InFlightDiagnostic diag = caller->emitOpError()
                            << "element '" << getSymName()
                            << "' has no 'np.push' body for port '" << port
                            << "'";
  diag.attachNote(getLoc()) << "element declared here";
  return diag;
}

LogicalResult CallPushOp::verify() {
  if (!isa<HandlerOp>((*this)->getParentOp()))
    return emitOpError() << "must be directly in an 'np.handler'";
  return (*this)->getParentOfType<ElementOp>().verifyPushCall(
      *this, getPort(), getValue().getType());
}

LogicalResult PushOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto element = (*this)->getParentOfType<ElementOp>();
  auto port =
      dyn_cast_or_null<PortOp>(symbols.lookupSymbolIn(element, getPortAttr()));
  if (!port || !port.isInput())
    return emitOpError() << "'" << getPort() << "' is not an input port of "
                         << "element '" << element.getSymName() << "'";
  if (getValue().getType() != port.getType()) {
    InFlightDiagnostic diag = emitOpError()
                              << "value type " << getValue().getType()
                              << " does not match the type " << port.getType()
                              << " of port '" << getPort() << "'";
    diag.attachNote(port.getLoc()) << "declared here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// HandlerLoadOp
//===----------------------------------------------------------------------===//

LogicalResult HandlerLoadOp::verify() {
  auto init = (*this)->getParentOfType<InitOp>();
  if (!init)
    return emitOpError("is only allowed in 'np.init'");
  if (getPath().empty())
    return emitOpError("needs a file name");
  auto element = dyn_cast_or_null<ElementOp>(init->getParentOp());
  if (!element) // reported by np.init
    return failure();
  for (auto c : element.getBody()->getOps<ControlOp>())
    if (c.getWrite() && c.getName() == getHandler())
      return success();
  return emitOpError("names no write handler of the element: '")
         << getHandler() << "'";
}

//===----------------------------------------------------------------------===//
// StateFieldOp
//===----------------------------------------------------------------------===//

LogicalResult StateFieldOp::verify() {
  auto arg = dyn_cast<BlockArgument>(getSelf());
  Operation *body = arg ? arg.getOwner()->getParentOp() : nullptr;
  if (!arg || arg.getArgNumber() != 0 ||
      !isa_and_nonnull<InitOp, HandlerOp, PushOp, SignalOp, TimerOp, FiniOp,
                       ControlOp>(body) ||
      !body->isAncestor(*this))
    return emitOpError() << "operand must be the '!np.self' argument of the "
                            "enclosing init, handler or signal body";
  return success();
}

LogicalResult
StateFieldOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyStateUse(*this, getStateAttr(), getType(), symbolTable);
}

#define GET_OP_CLASSES
#include "dialects/NP/IR/NPOps.cpp.inc"
