//===- NPStructureOps.td - elements, ports, state, regions --*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPSTRUCTUREOPS_TD
#define NPCC_DIALECTS_NP_IR_NPSTRUCTUREOPS_TD

def NP_ElementOp : NP_Op<"element", [
    Symbol, SymbolTable, SingleBlock, NoTerminator, IsolatedFromAbove,
    HasParent<"::mlir::ModuleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a packet-processing element (a CSP process)";
  let description = [{
    An element is one process of the dataflow graph: ports, persistent
    state, and up to three regions. `np.init` runs once before the first
    packet, `np.handler` runs whenever the element can make progress, and
    `np.signal` runs when the host sends a control message. The body holds
    only `np.port`, `np.state`, `np.init`, `np.handler` (required),
    `np.signal`, `np.timer`, `np.fini`, at most one of each, and any
    number of `np.control` and (after `np-fuse`) `np.push`, one per port.

    The front end specialises an NPL element once per distinct argument
    list, as ClickNP generates one kernel per element instance: `origin`
    keeps the NPL name and `params` the argument values that were folded
    into the body.

    Elements with the same source name (`origin`, or the symbol name when
    there is none) hold one copy of their `shared` states between them:
    they must all declare the same ones (names, types, initial values),
    which is verified against the first such element of the module.

    Example:

    ```mlir
    np.element @Counter_0 attributes {origin = "Counter"} {
      np.port @in in : !np.pkt
      np.port @out out : !np.pkt
      np.state @count : memref<1xi64> = dense<0>
      np.handler {
        %p = np.recv @in : !np.pkt
        np.send @out, %p : !np.pkt
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$origin,
                       OptionalAttr<DictionaryAttr>:$params);
  let regions = (region SizedRegion<1>:$bodyRegion);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $bodyRegion";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  // Creates the body block.
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   CArg<"::mlir::StringAttr", "{}">:$origin,
                   CArg<"::mlir::DictionaryAttr", "{}">:$params)>
  ];
  let extraClassDeclaration = [{
    /// The port named `name`, or null.
    PortOp lookupPort(::llvm::StringRef name);
    /// Checks that the element has an np.push body for `port` that takes a
    /// value of type `type`, as `caller` (a fused send or a call_push)
    /// calls it; the error goes on `caller`.
    ::llvm::LogicalResult verifyPushCall(::mlir::Operation *caller,
                                         ::llvm::StringRef port,
                                         ::mlir::Type type);
    /// The NPL element this one specialises (`origin`, or the symbol name
    /// without one): the elements of one source name share `shared` state.
    ::llvm::StringRef getSourceName() {
      return getOrigin() ? *getOrigin() : getSymName();
    }
    /// The region ops; null when absent (the verifier requires a handler).
    InitOp getInit();
    HandlerOp getHandler();
    SignalOp getSignal();
    TimerOp getTimer();
    FiniOp getFini();
  }];
}

def NP_PortOp : NP_Op<"port", [
    Symbol, ParentOneOf<["ElementOp", "GraphOp"]>]> {
  let summary = "a typed port of an element or a boundary port of a graph";
  let description = [{
    Declares a port. In an `np.element`, `in` ports are read with `np.recv`,
    `np.try_recv` and `np.select` and `out` ports written with `np.send`. In
    an `np.graph`, ports are the boundary of a compound element: an `in`
    port is fed from outside and is a source inside the graph, an `out` port
    is a sink inside the graph. The type is `!np.pkt` or a signless integer.

    Example:

    ```mlir
    np.port @in in : !np.pkt
    np.port @ctl out : i32
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       NP_PortDirection:$direction,
                       TypeAttr:$type);
  let assemblyFormat = "$sym_name `` $direction `:` $type attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isInput() { return getDirection() == PortDirection::In; }
    bool isOutput() { return getDirection() == PortDirection::Out; }
  }];
}

def NP_StateOp : NP_Op<"state", [Symbol, HasParent<"ElementOp">]> {
  let summary = "persistent state of an element";
  let description = [{
    Declares state that persists across packets, as a statically shaped
    memref of integers, optionally initialised. Handlers access it through
    `np.state_ref`, so upstream `memref.load`/`memref.store` and their
    lowerings apply unchanged.

    Each instance has its own copy, unless the state is `shared`: then one
    copy, initialised once, serves every instance of every element with the
    same source name (`origin`, or the symbol name without one), as a C++
    static member serves every object of its class (NPL's `shared { }`).
    Bodies reach it the same way; only the storage differs.

    Example:

    ```mlir
    np.state @count : memref<1xi64> = dense<0>
    np.state @table : memref<256xi32>
    np.state shared @next_id : memref<1xi16> = dense<1>
    np.state @hits : memref<4xi64> = dense<0> merge "sum"
    ```

    A `queue<pkt, N>` is a memref of N + 2 words (the packets' words in a
    ring, then the head and the count) with the discardable attribute
    `np.packet_queue = N`: the packets it may hold at once, for which the
    hls target gives the instance buffers.

    `merge` (NPL's `merge sum|or|max|min`) says how per-core copies of the
    state combine when a mapping runs the element on several cores: `sum`,
    `or`, `umax`/`smax`, `umin`/`smin`, element by element. It is a promise
    the mapping pass checks: handlers update the state only by combining it
    with that operator, and read it only in control handlers.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttr:$type,
                       OptionalAttr<ElementsAttr>:$initial_value,
                       UnitAttr:$shared,
                       OptionalAttr<StrAttr>:$merge);
  let assemblyFormat = [{
    (`shared` $shared^)? $sym_name `:`
    custom<StateTypeAndInitialValue>($type, $initial_value)
    (`merge` $merge^)? attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::Type":$type,
                   CArg<"::mlir::ElementsAttr", "{}">:$initialValue,
                   CArg<"bool", "false">:$shared), [{
      build($_builder, $_state, name, type, initialValue, shared,
            /*merge=*/::mlir::StringAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MemRefType getMemRefType() {
      return ::llvm::cast<::mlir::MemRefType>(getType());
    }
  }];
}

def NP_StateRefOp : NP_Op<"state_ref", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the memref of an element's state";
  let description = [{
    Returns the memref that holds the `np.state` named `state` of the
    enclosing element. The result type must equal the state's type.

    Example:

    ```mlir
    %m = np.state_ref @count : memref<1xi64>
    %c0 = arith.constant 0 : index
    %v = memref.load %m[%c0] : memref<1xi64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$state);
  let results = (outs AnyStaticShapeMemRef:$result);
  let assemblyFormat = "$state attr-dict `:` type($result)";
}

def NP_StateFieldOp : NP_Op<"state_field", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a state of an element, reached through its instance";
  let description = [{
    Returns the memref that holds the `np.state` named `state` inside the
    state object of the running instance `self`, which must be the `!np.self`
    argument of the enclosing body. This is `np.state_ref` made explicit by
    `np-make-state-explicit`: back ends lower it to a field of a
    per-instance object (`self->count` in C) instead of a global.

    Example:

    ```mlir
    np.handler {
    ^bb0(%self: !np.self):
      %m = np.state_field %self @count : memref<1xi64>
    }
    ```
  }];
  let arguments = (ins NP_SelfType:$self, FlatSymbolRefAttr:$state);
  let results = (outs AnyStaticShapeMemRef:$result);
  let assemblyFormat = "$self $state attr-dict `:` type($result)";
  let hasVerifier = 1;
}

class NP_BodyOp<string mnemonic, list<Trait> traits = []>
    : NP_Op<mnemonic, traits # [
        HasParent<"ElementOp">, SingleBlockImplicitTerminator<"YieldOp">,
        AutomaticAllocationScope,
        // Each body is a separate entry point: nothing flows in from the
        // element, and folded constants materialise inside the body.
        IsolatedFromAbove]> {
  let regions = (region SizedRegion<1>:$bodyRegion);
  let assemblyFormat = "attr-dict-with-keyword $bodyRegion";
  let skipDefaultBuilders = 1;
  // Creates the block (with its arguments) and the `np.yield`.
  let builders = [OpBuilder<(ins)>];
  // The body may start with a `!np.self` argument (np-make-state-explicit);
  // the other arguments follow it.
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The `!np.self` argument of the body, or null before
    /// np-make-state-explicit.
    ::mlir::BlockArgument getSelf();
  }];
}

def NP_InitOp : NP_BodyOp<"init"> {
  let summary = "code run once before the element processes packets";
  let description = [{
    The body runs once when the element starts, before the first run of the
    handler; it typically fills state tables.

    Example:

    ```mlir
    np.init {
      %m = np.state_ref @count : memref<1xi64>
      %c0 = arith.constant 0 : index
      %z = arith.constant 0 : i64
      memref.store %z, %m[%c0] : memref<1xi64>
    }
    ```
  }];
}

def NP_HandlerOp : NP_BodyOp<"handler"> {
  let summary = "code run whenever the element can make progress";
  let description = [{
    The handler is the element's loop body: the executor runs it again and
    again, and it blocks in `np.recv`, `np.select` or `np.send` until a
    channel is ready (ClickNP's `.handler`). Every element has exactly one.

    Example:

    ```mlir
    np.handler {
      %p = np.recv @in : !np.pkt
      np.send @out, %p : !np.pkt
    }
    ```
  }];
}

def NP_PushOp : NP_BodyOp<"push", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the handler as a call that is handed its value (np-fuse)";
  let description = [{
    The element's handler with its receive from `port` replaced by the
    body's last argument: a producer whose channel into `port` is fused
    (`np.connect fused`, written by `np-fuse`) runs this body as a direct
    call, on its own stack, with the value it sends (`np.fused_send`),
    instead of putting the value into the channel and letting the runtime
    call the handler, which would take it out again. The body takes an
    optional `!np.self` and then one argument of the port's type.

    A push body is called and must return to its caller: it receives
    nothing (`np.recv`, `np.select`, `np.device_recv`) and never ends its
    instance (`np.finish`). It may block in a send, as a pushed handler
    may: the stack it runs on waits. An element has at most one push body
    per input port; its handler stays, and runs on the element's own thread
    whenever a value does reach the channel (see `np.fused_send`).

    Example:

    ```mlir
    np.push @in {
    ^bb0(%self: !np.self, %p: !np.pkt):
      np.send @out, %p : !np.pkt
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$port);
  let assemblyFormat = "$port attr-dict-with-keyword $bodyRegion";
  // Creates an empty region: np-fuse clones the handler into it.
  let builders = [OpBuilder<(ins "::llvm::StringRef":$port)>];
  let extraClassDeclaration = [{
    /// The `!np.self` argument of the body, or null before
    /// np-make-state-explicit.
    ::mlir::BlockArgument getSelf();
    /// The value the body is handed: its last argument.
    ::mlir::BlockArgument getValue();
  }];
}

def NP_CallPushOp : NP_Op<"call_push"> {
  let summary = "the handler's rest as a call of the element's push body";
  let description = [{
    Runs the element's `np.push` body for `port` with `value`, as a plain
    call from its handler: nothing is counted or sent. The C target
    writes a handler that starts with a receive from `port`, whose push
    body is the rest of it, as that receive followed by this call, so the
    code of the rest is emitted once (c-convert-np-to-emitc). Only in a
    handler that has `self` (`np-make-state-explicit`).

    Example:

    ```mlir
    np.handler {
    ^bb0(%self: !np.self):
      %p = np.recv @in : !np.pkt
      np.call_push @in(%self, %p) : !np.pkt
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$port, NP_SelfType:$self,
                       AnyType:$value);
  let assemblyFormat =
      "$port `(` $self `,` $value `)` attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def NP_SignalOp : NP_BodyOp<"signal"> {
  let summary = "code run when the host sends a control message";
  let description = [{
    The body runs between two runs of the handler when the host signals the
    element (ClickNP's `.signal`). Its block argument of type `i64` (after
    the optional `!np.self`) is the message.

    Example:

    ```mlir
    np.signal {
    ^bb0(%msg: i64):
      %m = np.state_ref @count : memref<1xi64>
      %c0 = arith.constant 0 : index
      memref.store %msg, %m[%c0] : memref<1xi64>
    }
    ```
  }];
}

def NP_TimerOp : NP_BodyOp<"timer"> {
  let summary = "code run every `period` nanoseconds";
  let description = [{
    The body runs every `period` nanoseconds of the program's clock (the
    time stamps of the packets read, on a trace), the first time one period
    after the first packet, each time with `np.now` reading its deadline. It
    runs on the element's own thread, between two operations of the handler
    that block.

    Example:

    ```mlir
    np.timer attributes {period = 1000000000 : i64} {
      %m = np.state_ref @tokens : memref<1xi64>
      ...
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$period);
  let builders = [OpBuilder<(ins "int64_t":$period)>];
}

def NP_FiniOp : NP_BodyOp<"fini"> {
  let summary = "code run once when the program ends";
  let description = [{
    Runs once for every instance after the run, whatever ended it; it frees
    (and counts as drops) the packets the element's state still holds, so
    that none is lost silently. It must not block.

    Example:

    ```mlir
    np.fini {
      ...
      np.drop %p
    }
    ```
  }];
}

def NP_ControlOp : NP_BodyOp<"control"> {
  let summary = "a read or write handler of an element (Click's handlers)";
  let description = [{
    A body run on request, between activations, by `-h ELEMENT.NAME` or the
    control socket: a read handler (no `write`) gives a value with
    `np.handler_result`, a write handler reads its arguments with
    `np.handler_arg`. Value kinds (`result_kind`, `param_kinds`) use the
    runtime's NPRT_VAL_* encoding (width, | 0x100 signed, 0x200 bool, 0x300
    prefix, | 0x1000 when the parameter has a default, given in
    `param_defaults`). It must not block: no receive, send or select.

    Example:

    ```mlir
    np.control attributes {name = "count", result_kind = 64 : i32} {
      ...
      np.handler_result %n : i64
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, UnitAttr:$write, I32Attr:$result_kind,
                       DenseI32ArrayAttr:$param_kinds,
                       DenseI64ArrayAttr:$param_defaults);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name, "bool":$write,
                                 "uint32_t":$resultKind,
                                 "::llvm::ArrayRef<int32_t>":$paramKinds,
                                 "::llvm::ArrayRef<int64_t>":$paramDefaults)>];
  let hasVerifier = 1;
}

def NP_HandlerArgOp : NP_Op<"handler_arg", [Pure, HasParent<"ControlOp">]> {
  let summary = "an argument of the write handler running";
  let description = [{
    Argument `index` of the enclosing write handler, parsed by the runtime
    from text by its value kind and truncated to the result type.

    Example:

    ```mlir
    %a = np.handler_arg 0 : i32
    ```
  }];
  let arguments = (ins I32Attr:$index);
  let results = (outs AnySignlessInteger:$value);
  let assemblyFormat = "$index attr-dict `:` type($value)";
}

def NP_HandlerResultOp : NP_Op<"handler_result"> {
  let summary = "the value of the read handler running";
  let description = [{
    Sets the value the enclosing read handler answers with; the last one
    set before the body ends counts.

    Example:

    ```mlir
    np.handler_result %n : i64
    ```
  }];
  let arguments = (ins AnySignlessInteger:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def NP_HandlerLoadOp : NP_Op<"handler_load"> {
  let summary = "run a write handler once per line of a text file";
  let description = [{
    In `np.init`: runs the element's write handler `handler` (an
    `np.control` with `write`) once per line of the text file `path`,
    relative to the working directory of the run. Each line is parsed as
    the handler's argument text on the control socket; blank lines and
    `#` comments are skipped. A file that cannot be read or a line that
    does not parse is a run-time error (`path:line: error: ...`) that ends
    the run after init, before any packet moves. This is how a table in
    state is filled from a file: the handler inserts one entry.

    Example:

    ```mlir
    np.init {
      np.handler_load "add_route", "routes.txt"
    }
    ```
  }];
  let arguments = (ins StrAttr:$handler, StrAttr:$path);
  let assemblyFormat = "$handler `,` $path attr-dict";
  let hasVerifier = 1;
}

def NP_YieldOp : NP_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["InitOp", "HandlerOp", "PushOp", "SignalOp", "TimerOp",
                 "FiniOp", "ControlOp"]>]> {
  let summary = "terminator of the init, handler and signal regions";
  let description = [{
    Ends the body of `np.init`, `np.handler` and `np.signal`. It is implied
    by the custom syntax and printed only in the generic form.

    Example:

    ```mlir
    np.handler {
      np.yield
    }
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def NP_ExitLoopIfOp : NP_Op<"exit_loop_if", [
    HasParent<"::mlir::scf::ForOp">]> {
  let summary = "a hint that the rest of a loop does nothing";
  let description = [{
    States that once `cond` holds, every remaining iteration of the
    enclosing `scf.for` (this one included, from this point) has no effect:
    the front end guards the statements after a `break`, a `return` or the
    end of a `while` loop by flags, so the loop's result is the same whether
    it runs to its bound or stops. A target may leave the loop here (the C
    target emits `if (cond) break;`); the reference interpreter runs every
    iteration, which makes the differential tests check the hint. The
    front end emits it only in loops of at least two iterations, which the
    canonicalizer never folds into the code around them.

    Example:

    ```mlir
    scf.for %i = %c0 to %c64 step %c1 {
      %done = memref.load %broken[%c0] : memref<1xi1>
      np.exit_loop_if %done
      ...
    }
    ```
  }];
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond attr-dict";
}

#endif // NPCC_DIALECTS_NP_IR_NPSTRUCTUREOPS_TD
