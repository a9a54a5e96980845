//===- NPGraphOps.td - graphs, instances and connections ----*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPGRAPHOPS_TD
#define NPCC_DIALECTS_NP_IR_NPGRAPHOPS_TD

def NP_GraphOp : NP_Op<"graph", [
    Symbol, SymbolTable, SingleBlock, NoTerminator, IsolatedFromAbove,
    HasParent<"::mlir::ModuleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a composition of element and graph instances";
  let description = [{
    A graph instantiates elements and other graphs (`np.instance`) and
    connects their ports (`np.connect`). Its own `np.port`s are the boundary
    of a compound element: an `in` boundary port is a source inside the
    graph, an `out` boundary port a sink. The unit attribute `top` marks the
    graph the program runs; `np-flatten-graph` inlines every compound
    instance into it.

    Every channel has one producer and one consumer: each instance port and
    each boundary port is used by exactly one `np.connect`. A graph may not
    instantiate itself, directly or through other graphs.

    Example:

    ```mlir
    np.graph @Router attributes {top} {
      np.instance @src of @FromDevice_0
      np.instance @cnt of @Counter_0 {placement = "fpga"}
      np.instance @dst of @ToDevice_0
      np.connect @src::@out to @cnt::@in depth 64
      np.connect lossy @cnt::@out to @dst::@in depth 8
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, UnitAttr:$top);
  let regions = (region SizedRegion<1>:$bodyRegion);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $bodyRegion";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  // Creates the body block.
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, CArg<"bool", "false">:$top)>
  ];
  let extraClassDeclaration = [{
    /// The boundary port named `name`, or null.
    PortOp lookupPort(::llvm::StringRef name);
    /// Resolves one end of a connection in this graph: `@inst::@port` names
    /// a port of the element or graph `inst` instantiates (`instance` is set),
    /// a flat `@port` a boundary port of this graph (`instance` is null).
    /// Returns failure, without diagnostics, when an end does not resolve.
    ::mlir::LogicalResult resolveEnd(::mlir::SymbolRefAttr end,
                                     ::mlir::SymbolTableCollection &symbols,
                                     InstanceOp &instance, PortOp &port);
  }];
}

def NP_InstanceOp : NP_Op<"instance", [
    Symbol, HasParent<"GraphOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "an instance of an element or graph";
  let description = [{
    Instantiates the `np.element` or `np.graph` named `callee` (a symbol of
    the enclosing module). `placement` says where the instance runs: `npu`
    (the default), `fpga` or `host`. `args` keeps the NPL argument list for
    display only; the front end has already specialised the callee.

    Example:

    ```mlir
    np.instance @cnt of @Counter_0 {args = [64], placement = "fpga"}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefAttr:$callee,
                       DefaultValuedStrAttr<StrAttr, "npu">:$placement,
                       OptionalAttr<ArrayAttr>:$args);
  let assemblyFormat = "$sym_name `of` $callee attr-dict";
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::llvm::StringRef":$callee,
                   CArg<"::llvm::StringRef", "\"npu\"">:$placement), [{
      build($_builder, $_state, name, callee, placement,
            /*args=*/::mlir::ArrayAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The element or graph this instance instantiates, or null.
    ::mlir::Operation *
    resolveCallee(::mlir::SymbolTableCollection &symbols);
  }];
}

def NP_ConnectOp : NP_Op<"connect", [HasParent<"GraphOp">]> {
  let summary = "a channel from an output to an input";
  let description = [{
    Connects `src` to `dst` with a FIFO of `depth` entries; depth 0 is a CSP
    rendezvous. An end `@inst::@port` names a port of an instance; a flat
    `@port` names a boundary port of the enclosing graph. The source is an
    `out` port of an instance or an `in` boundary port, the destination an
    `in` port of an instance or an `out` boundary port, and both ports have
    the same type.

    A connection is lossless by default: the sender blocks while the FIFO is
    full. With `lossy` the sender drops the packet instead and the drop is
    counted.

    `fused` (set by `np-fuse`, never with `lossy`) says the channel is
    compiled into direct calls: both ends are ports of element instances,
    the source element sends on its port only with `np.fused_send` to the
    destination element's port, and the destination element has an
    `np.push` body for it. The channel still exists, with the same depth;
    it carries the values the runtime does not hand over as calls.

    `np-check-channels` may add the discardable attribute `inferred_depth`
    (i64): the most values the source's handler sends on its port in one
    run, when that is more than 1. A target that sizes its own buffers
    (HLS streams) may use the larger of `depth` and `inferred_depth`; the
    runtime's channels have `depth` entries.

    Example:

    ```mlir
    np.connect @a::@out to @b::@in depth 64
    np.connect lossy @b::@out to @c::@in depth 8
    np.connect @in to @a::@in depth 0
    np.connect fused @c::@out to @d::@in depth 64
    np.connect @d::@out to @e::@in depth 2 {inferred_depth = 4 : i64}
    ```
  }];
  let arguments = (ins SymbolRefAttr:$src, SymbolRefAttr:$dst,
                       I64Attr:$depth, UnitAttr:$lossy, UnitAttr:$fused);
  let assemblyFormat =
      "(`lossy` $lossy^)? (`fused` $fused^)? $src `to` $dst `depth` $depth "
      "attr-dict";
  let hasVerifier = 1;
}

def NP_ProgramOp : NP_Op<"program", [
    Symbol, HasParent<"::mlir::ModuleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the top graph described as data";
  let description = [{
    The whole program as back ends and runtimes consume it: a table of
    instances and a table of channels, written by `np-describe-graph` from
    the flattened, instantiated top graph. Instance `i` runs element
    `elements[i]` under the name `names[i]` with placement `placements[i]`;
    every element is used by exactly one instance. Ports are numbered by
    position among the element's `in` (or `out`) ports, in declaration
    order.

    Each channel is `[src, src_port, dst, dst_port, depth, lossy, fused]`:
    from out port `src_port` of instance `src` to in port `dst_port` of
    instance `dst`, with a FIFO of `depth` entries (0: a rendezvous) that
    drops when full if `lossy` is 1 and blocks the sender if it is 0.
    `fused` is 1 for a channel `np-fuse` compiled into direct calls (see
    `np.connect`), never for a lossy one.

    `np-describe-graph` carries the `inferred_depth` np-check-channels put
    on the connections as the discardable attribute
    `np.inferred_depths`, one entry per channel (0: none); a target that
    sizes its own buffers (the hls target's streams) may use the larger
    of `depth` and that entry.

    Example:

    ```mlir
    np.program @Top elements [@src, @sink] names ["src", "sink"]
        placements ["host", "host"] channels [array<i64: 0, 0, 1, 0, 8, 0, 0>]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefArrayAttr:$elements,
                       StrArrayAttr:$names,
                       StrArrayAttr:$placements,
                       TypedArrayAttrBase<DenseI64ArrayAttr,
                                          "array of channels">:$channels);
  let assemblyFormat = [{
    $sym_name `elements` $elements `names` $names `placements` $placements
    `channels` $channels attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// A channel row, as its seven fields.
    struct Channel {
      uint32_t src, srcPort, dst, dstPort, depth;
      bool lossy, fused;
    };
    Channel getChannel(unsigned i);
  }];
}

#endif // NPCC_DIALECTS_NP_IR_NPGRAPHOPS_TD
