//===- NPPacketOps.cpp - channel and packet operations --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/NP/IR/NPOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace npcc::np;

Type npcc::np::getMetaFieldType(MLIRContext *context, StringRef field) {
  unsigned width = llvm::StringSwitch<unsigned>(field)
                       .Cases("in_port", "paint", "out_port", 32)
                       .Cases("anno", "ts", 64)
                       .Default(0);
  return width ? IntegerType::get(context, width) : Type();
}

//===----------------------------------------------------------------------===//
// Ports named by channel operations
//===----------------------------------------------------------------------===//

static LogicalResult verifyInElement(Operation *user) {
  if (user->getParentOfType<ElementOp>())
    return success();
  return user->emitOpError() << "must be nested in an 'np.element'";
}

/// The port `name` of the element around `user`; emits an error and returns
/// null when there is none.
static PortOp lookupPort(Operation *user, FlatSymbolRefAttr name,
                         SymbolTableCollection &symbols) {
  auto element = user->getParentOfType<ElementOp>();
  assert(element && "the verifier checked the enclosing element");
  auto port = dyn_cast_or_null<PortOp>(symbols.lookupSymbolIn(element, name));
  if (!port)
    user->emitOpError() << "element '" << element.getSymName()
                        << "' has no port named '" << name.getValue() << "'";
  return port;
}

static LogicalResult verifyDirection(Operation *user, PortOp port,
                                     PortDirection expected) {
  if (port.getDirection() == expected)
    return success();
  InFlightDiagnostic diag = user->emitOpError()
                            << "expects " << stringifyPortDirection(expected)
                            << " port, but '" << port.getSymName() << "' is "
                            << stringifyPortDirection(port.getDirection());
  diag.attachNote(port.getLoc()) << "declared here";
  return diag;
}

static LogicalResult verifyPortType(Operation *user, PortOp port, Type type,
                                    StringRef what) {
  if (type == port.getType())
    return success();
  InFlightDiagnostic diag = user->emitOpError()
                            << what << " type " << type
                            << " does not match the type " << port.getType()
                            << " of port '" << port.getSymName() << "'";
  diag.attachNote(port.getLoc()) << "declared here";
  return diag;
}

/// Checks that `name` is a port of direction `direction` and type `type`.
static LogicalResult verifyPortUse(Operation *user, FlatSymbolRefAttr name,
                                   PortDirection direction, Type type,
                                   StringRef what,
                                   SymbolTableCollection &symbols) {
  PortOp port = lookupPort(user, name, symbols);
  if (!port || failed(verifyDirection(user, port, direction)))
    return failure();
  return verifyPortType(user, port, type, what);
}

LogicalResult RecvOp::verify() { return verifyInElement(*this); }

LogicalResult RecvOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyPortUse(*this, getPortAttr(), PortDirection::In, getType(),
                       "result", symbols);
}

LogicalResult TryRecvOp::verify() { return verifyInElement(*this); }

LogicalResult TryRecvOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyPortUse(*this, getPortAttr(), PortDirection::In,
                       getValue().getType(), "result", symbols);
}

LogicalResult SendOp::verify() { return verifyInElement(*this); }

LogicalResult SendOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyPortUse(*this, getPortAttr(), PortDirection::Out,
                       getValue().getType(), "operand", symbols);
}

LogicalResult FusedSendOp::verify() {
  if (failed(verifyInElement(*this)))
    return failure();
  if (getTarget().getNestedReferences().size() != 1)
    return emitOpError() << "target " << getTarget()
                         << " must be '@element::@port'";
  return success();
}

LogicalResult FusedSendOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(verifyPortUse(*this, getPortAttr(), PortDirection::Out,
                           getValue().getType(), "operand", symbols)))
    return failure();
  auto module = (*this)->getParentOfType<ModuleOp>();
  auto element = dyn_cast_or_null<ElementOp>(
      module ? symbols.lookupSymbolIn(module, getTarget().getRootReference())
             : nullptr);
  if (!element)
    return emitOpError() << "'" << getTarget().getRootReference().getValue()
                         << "' does not name an 'np.element'";
  return element.verifyPushCall(
      *this, getTarget().getLeafReference().getValue(), getValue().getType());
}

LogicalResult SelectOp::verify() {
  if (failed(verifyInElement(*this)))
    return failure();
  if (getPorts().empty())
    return emitOpError() << "expects at least one port";
  llvm::SmallDenseSet<Attribute> seen;
  for (Attribute port : getPorts())
    if (!seen.insert(port).second)
      return emitOpError() << "lists port " << port << " more than once";
  return success();
}

LogicalResult SelectOp::verifySymbolUses(SymbolTableCollection &symbols) {
  for (auto name : getPorts().getAsRange<FlatSymbolRefAttr>()) {
    PortOp port = lookupPort(*this, name, symbols);
    if (!port || failed(verifyDirection(*this, port, PortDirection::In)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Packet fields
//===----------------------------------------------------------------------===//

static LogicalResult verifyFieldWidth(Operation *op, uint32_t width,
                                      Type type) {
  if (width < 1 || width > 64)
    return op->emitOpError() << "width must be in [1, 64], found " << width;
  if (type.getIntOrFloatBitWidth() != width)
    return op->emitOpError()
           << "width " << width << " does not match type " << type;
  return success();
}

void PktGetOp::build(OpBuilder &builder, OperationState &state,
                     IntegerType resultType, Value pkt, Value offset) {
  build(builder, state, resultType, pkt, offset, resultType.getWidth(),
        /*bit=*/0, /*header=*/nullptr, /*field=*/nullptr);
}

LogicalResult PktGetOp::verify() {
  if ((int32_t)getBit() < 0)
    return emitOpError() << "bit must not be negative, found "
                         << (int32_t)getBit();
  return verifyFieldWidth(*this, getWidth(), getType());
}

void PktSetOp::build(OpBuilder &builder, OperationState &state, Value pkt,
                     Value offset, Value value) {
  build(builder, state, pkt, offset, value,
        value.getType().getIntOrFloatBitWidth(), /*bit=*/0,
        /*header=*/nullptr, /*field=*/nullptr);
}

LogicalResult PktSetOp::verify() {
  if ((int32_t)getBit() < 0)
    return emitOpError() << "bit must not be negative, found "
                         << (int32_t)getBit();
  return verifyFieldWidth(*this, getWidth(), getValue().getType());
}

static LogicalResult verifyMetaField(Operation *op, StringRef field,
                                     Type type) {
  Type expected = getMetaFieldType(op->getContext(), field);
  if (!expected)
    return op->emitOpError() << "unknown metadata field '" << field
                             << "'; expected 'in_port', 'paint', 'out_port', "
                                "'anno' or 'ts'";
  if (type != expected)
    return op->emitOpError() << "metadata field '" << field << "' has type "
                             << expected << ", found " << type;
  return success();
}

LogicalResult MetaGetOp::verify() {
  return verifyMetaField(*this, getField(), getType());
}

LogicalResult MetaSetOp::verify() {
  return verifyMetaField(*this, getField(), getValue().getType());
}

LogicalResult CrcOp::verify() {
  if (getValue().getType().getIntOrFloatBitWidth() % 8 != 0)
    return emitOpError("needs whole bytes, found ") << getValue().getType();
  return success();
}
