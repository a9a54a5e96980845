//===- NPDialect.td - np dialect, types and attributes -----*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPDIALECT_TD
#define NPCC_DIALECTS_NP_IR_NPDIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaceBase.td"

def NP_Dialect : Dialect {
  let name = "np";
  let cppNamespace = "::npcc::np";
  let summary = "Packet elements, channels and graphs";
  let description = [{
    The `np` dialect describes a network-processing program the way ClickNP
    and CSP do: *elements* (`np.element`) own ports, state and an init,
    handler and signal region; *graphs* (`np.graph`) instantiate elements and
    other graphs and *connect* their ports with bounded channels. Handler
    bodies are written in upstream `arith`, `scf`, `memref` and `func` plus
    the packet and channel operations of this dialect.

    See `dialects/NP/Rationale.md` for why the operations look as they do.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class NP_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<NP_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def NP_PacketType : NP_Type<"Packet", "pkt"> {
  let summary = "a handle to a packet buffer";
  let description = [{
    A packet is an opaque handle to a buffer that holds one frame plus its
    metadata (input port, paint, output port, annotation). Fields are read
    and written with `np.pkt_get`/`np.pkt_set` at bit offsets from the first
    byte of the frame, so a header access lowers to a load at a constant
    offset. A handle is owned by one element at a time: it is passed on with
    `np.send`, released with `np.drop` and duplicated with `np.clone`.

    Example:

    ```mlir
    %p = np.recv @in : !np.pkt
    ```
  }];
}

def NP_SelfType : NP_Type<"Self", "self"> {
  let summary = "the running instance of the enclosing element";
  let description = [{
    The instance whose code is running: its ports and its state object.
    After `np-make-state-explicit`, every `np.init`, `np.handler` and
    `np.signal` body takes it as its first block argument and reaches its
    state through it with `np.state_field`, so each instance's state is one
    object that the generated code is handed, never a global.

    Example:

    ```mlir
    np.handler {
    ^bb0(%self: !np.self):
      %m = np.state_field %self @count : memref<1xi64>
    }
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def NP_PortDirectionEnum : I32EnumAttr<"PortDirection", "port direction", [
    I32EnumAttrCase<"In", 0, "in">,
    I32EnumAttrCase<"Out", 1, "out">
  ]> {
  let cppNamespace = "::npcc::np";
  let genSpecializedAttr = 0;
}

def NP_PortDirection : EnumAttr<NP_Dialect, NP_PortDirectionEnum,
                                "port_direction"> {
  let summary = "direction of a port: `in` or `out`";
  let description = [{
    Whether a port receives (`in`) or sends (`out`) from the point of view of
    the element or graph that declares it. Printed as a bare keyword in
    `np.port`:

    ```mlir
    np.port @i in : !np.pkt
    ```
  }];
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Side-effect resources
//===----------------------------------------------------------------------===//

// Packet bytes and metadata, as read and written by the packet operations.
def NP_PacketResource : Resource<"::npcc::np::PacketResource">;

#endif // NPCC_DIALECTS_NP_IR_NPDIALECT_TD
