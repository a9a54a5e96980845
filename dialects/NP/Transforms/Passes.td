//===- Passes.td - np dialect passes ------------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_TRANSFORMS_PASSES_TD
#define NPCC_DIALECTS_NP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlattenGraph : Pass<"np-flatten-graph", "::mlir::ModuleOp"> {
  let summary = "Inline compound elements into the top graph";
  let description = [{
    Turns the hierarchy of graphs into one flat graph of element instances,
    the form every back end expects. This is not an optimization: the
    program's channels, depths and placements are unchanged.

    The top graph is the one named by the `top` option; without it, the
    graph carrying the `top` attribute; without that, the one graph that no
    other graph instantiates. Several candidates, or none, is an error. A
    module without graphs is left alone.

    Every instance of a graph (a compound element) in the top graph is
    replaced, recursively, by the instances inside it. An inner instance
    `inner` of a compound instance `outer` is renamed `outer/inner`, as Click
    names the elements of a compound. Two connections that meet at a
    boundary port of the compound become one channel: it keeps the depth of
    the *outer* connection and is lossy if either connection is. A boundary
    input wired straight to a boundary output inside the compound joins the
    two outer connections; the channel takes the larger of their depths.
    An inner instance with the default placement (`npu`) inherits the
    placement of the compound instance.

    Afterwards the top graph carries the `top` attribute and instantiates
    only elements, and it is the only graph left: the other graphs are
    erased, since nothing refers to them any more. Inner instances take the
    place of the compound instance; connections inside the compound follow
    them, and stitched connections replace the outer ones in place.

    Example: with

    ```mlir
    np.graph @Pair {
      np.port @in in : !np.pkt
      np.port @out out : !np.pkt
      np.instance @a of @Fwd
      np.instance @b of @Fwd
      np.connect @in to @a::@in depth 0
      np.connect @a::@out to @b::@in depth 4
      np.connect @b::@out to @out depth 0
    }
    np.graph @Top {
      np.instance @src of @Src
      np.instance @p of @Pair {placement = "fpga"}
      np.instance @dst of @Dst
      np.connect @src::@out to @p::@in depth 64
      np.connect lossy @p::@out to @dst::@in depth 8
    }
    ```

    `@Top` becomes

    ```mlir
    np.graph @Top attributes {top} {
      np.instance @src of @Src
      np.instance @"p/a" of @Fwd {placement = "fpga"}
      np.instance @"p/b" of @Fwd {placement = "fpga"}
      np.connect @"p/a"::@out to @"p/b"::@in depth 4
      np.instance @dst of @Dst
      np.connect @src::@out to @"p/a"::@in depth 64
      np.connect lossy @"p/b"::@out to @dst::@in depth 8
    }
    ```

    and `@Pair` is erased.
  }];
  let options = [
    Option<"topName", "top", "std::string", /*default=*/"\"\"",
           "Name of the top graph (default: the graph marked `top`, else "
           "the one graph no other graph instantiates)">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def InstantiateElements : Pass<"np-instantiate-elements", "::mlir::ModuleOp"> {
  let summary = "Give every instance of the top graph its own element";
  let description = [{
    ClickNP builds one kernel per element instance; this pass makes that
    explicit in the IR. Every element used by more than one instance of the
    flattened top graph is cloned, once per further instance, and each
    instance refers to its own copy: afterwards element and instance are
    one-to-one, so per-instance code and state can be derived from the
    element alone. A clone of `@E` for instance `x` is named `@"E.x"` (made
    unique if taken) and keeps `origin` and `params`. Elements that no
    instance uses are erased.

    The top graph must be flattened (`np-flatten-graph`): an instance of a
    graph is an error.
  }];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def CheckChannels : Pass<"np-check-channels", "::mlir::ModuleOp"> {
  let summary = "Check the channels of the top graph before any emission";
  let description = [{
    The channel checker: it proves, on the top graph (flattened and
    instantiated: `np-flatten-graph`, `np-instantiate-elements`), what every
    target needs of its channels, and reports at the source locations of the
    connections and instances. It runs in every target's pipeline; it
    changes nothing but the `inferred_depth` attribute described below. A
    module without a `top` graph is left alone. The checks, in order:

    1. **One producer and one consumer per channel.** A port of an instance
       (port array elements `o[k]` included) or a boundary port used by a
       second `np.connect` is an error at the second connection, with a note
       at the first. Fan-in is a `Merge` element and fan-out a `Tee`. (The
       graph verifier rejects the same IR when it is parsed; the pass
       checks again for IR built without verification.)

    2. **No cycle of rendezvous channels.** The instances and their
       lossless depth-0 channels (a sender waits until the receiver takes
       the value) must form no cycle: each strongly connected component of
       that graph is one error, at its first channel, listing the channels,
       with a note at every other one. Giving one channel of the cycle a
       depth breaks it; so does making it lossy (a lossy sender never
       waits).

    3. **Depth inference.** For each channel, the most values its
       producer's handler can send on the port in one run: every
       `np.send`/`np.fused_send` on the port along the path that sends
       most, branches taking their larger side, loops multiplied by their
       constant trip count (`unroll ... bound N` by `N`); loops of up to 64
       iterations are walked per iteration with the counter known, so
       `send(o[k], ...)` in `for k in 0..n` counts once per port. A loop
       that may stop early (a `while`, a `break` or `return` in it:
       `np.exit_loop_if`) runs as often as the data says, and a channel
       sent on in it, or in a loop without constant bounds, gets no
       inferred depth. When that
       number `k` is above 1 the connection gets `inferred_depth = k`,
       which targets may use as `max(depth, inferred_depth)` for buffers
       they size themselves (HLS streams); the runtime keeps the depth the
       program wrote. When `depth < k` the pass warns
       `[-Wchannel-depth]`: the consumer takes one value per run, so the
       producer waits inside its run (or a lossy channel drops). The
       option `channel-depth=warn|error|ignore` (npcc:
       `-Wno-channel-depth`, `-Werror=channel-depth`) makes it an error or
       silent.

    4. **Deadlock.** Each element instance becomes a process: the blocking
       channel operations of its `np.init` body, then those of its handler
       again and again (`np.recv`, `np.select`, `np.send`), in program order,
       with constant branches and loops of constant trip count resolved.
       Devices are always ready (`np.device_recv` is external input) and
       `np.try_recv` never waits. Where a run starts to depend on data (a
       branch or unknown loop with channel operations in it, a `select`, a
       `try_recv`, `finish`), and for elements with a timer, the process is
       assumed to be able to do anything from there on: its channels are
       always ready. The processes then run against each other over
       channels of their depths (depth 0: the sender waits until the
       receiver takes the value; lossy: the sender never waits), one event
       each per round, until the state repeats. A set of processes each
       waiting on a channel whose other end is in the set can never move
       again: that is an error at the first instance of the set, with a
       note at the operation each one waits in, saying on which channel and
       for whom. Two instances that receive first from each other with no
       value sent by an `np.init` body, or `A: send(c1); send(c2)` against
       `B: recv(c2); recv(c1)` over rendezvous channels, are rejected. A
       sequence of events is the same on every run, so such a network
       behaves the same under every schedule (a Kahn network); what the
       pass cannot decide is accepted.

    Example: with `@Fwd` receiving on `@i` and then sending on `@o`,

    ```mlir
    np.graph @Top attributes {top} {
      np.instance @a of @Fwd
      np.instance @b of @Fwd
      np.connect @a::@o to @b::@i depth 8
      np.connect @b::@o to @a::@i depth 8
    }
    ```

    is rejected: `error: deadlock: 'a' and 'b' wait for each other for
    ever`, with the notes `'a' waits here to receive on 'a.i' from 'b'` and
    `'b' waits here to receive on 'b.i' from 'a'`.
  }];
  let options = [
    Option<"channelDepth", "channel-depth", "std::string",
           /*default=*/"\"warn\"",
           "What a channel shallower than its inferred depth is: 'warn' "
           "(default), 'error' or 'ignore'">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def MakeStateExplicit : Pass<"np-make-state-explicit", "::mlir::ModuleOp"> {
  let summary = "Reach element state through an explicit `!np.self`";
  let description = [{
    Every `np.init`, `np.handler` and `np.signal` body gets a first block
    argument of type `!np.self`, the running instance, and every
    `np.state_ref @s` in it becomes `np.state_field %self @s`. State is then
    a field of an object that the instance's code is handed, which is how
    back ends keep one state object per instance instead of globals.
    Bodies that already take `!np.self` are left as they are.

    Example: `np.handler { %m = np.state_ref @n : memref<1xi64> }` becomes

    ```mlir
    np.handler {
    ^bb0(%self: !np.self):
      %m = np.state_field %self @n : memref<1xi64>
    }
    ```
  }];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def DescribeGraph : Pass<"np-describe-graph", "::mlir::ModuleOp"> {
  let summary = "Replace the top graph by an `np.program` table";
  let description = [{
    Writes the flattened, instantiated top graph as data: an `np.program`
    of the same name lists the instances (element, name, placement) in
    declaration order and the channels as rows of port indices with depth,
    kind (lossy) and whether `np-fuse` fused them, which is what a runtime
    loads. The graph is erased.

    The top graph must be flattened and instantiated: every instance names
    an element that no other instance uses, and the graph has no boundary
    ports.
  }];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def SplitPlacement : Pass<"np-split-placement", "::mlir::ModuleOp"> {
  let summary = "Keep one side of a host/FPGA placement; cut channels become PCIe slots";
  let description = [{
    Runs on the flattened top graph of a program whose instances are placed
    both `@host` and elsewhere (`@fpga`, or the default `npu`, which the
    HLS target builds on the FPGA). With `side=host` the pass keeps the
    `host` instances, with `side=fpga` all the others. Every channel
    between the two sides (a cut channel) becomes slot `s` of the PCIe I/O
    channel (ClickNP section 5.3), numbered 0, 1, ... in the order of the
    connections; at most 30 data slots exist, and only packet channels can
    be cut (errors at the connection otherwise).

    On each side a cut channel ends at a synthesized element: `PCIeTx`
    (`device_send` of each packet received) where the side sends into the
    channel, `PCIeRx` (`device_recv`, then `send`) where it receives. Their
    devices are numbered past every device the program numbers or names
    (input and output devices each in slot order) and are recorded in the
    module's `np.devices` with the path `pcie-slot:S`, which the runtime (host) and the testbench (FPGA) bind
    to the slot. The cut connection keeps its depth and lossiness. The
    module gains `np.pcie_slots`, the number of slots.

    A graph without a `host` instance is left alone.
  }];
  let options = [
    Option<"side", "side", "std::string", /*default=*/"\"fpga\"",
           "The side kept: host or fpga">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

#endif // NPCC_DIALECTS_NP_TRANSFORMS_PASSES_TD
