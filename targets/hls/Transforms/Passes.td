//===- Passes.td - the HLS target's passes on np IR --------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The passes that prepare np IR for the HLS target only: what HLS tools
// can synthesise, the header-window proof, the memory optimisations
// (docs/hls-optimisations.md) and the II report (docs/hls-ii-report.md).
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_HLS_TRANSFORMS_PASSES_TD
#define NPCC_TARGETS_HLS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckSynthesizable : Pass<"np-check-synthesizable", "::mlir::ModuleOp"> {
  let summary = "Reject what HLS tools cannot synthesise or pipeline";
  let description = [{
    A lint for the HLS target: it changes nothing, and fails with an error
    at the offending operation for every construct of an element bound for
    the FPGA that an HLS tool cannot turn into a circuit, so the user
    learns it from npcc and not hours later from the vendor tool. Every
    error names the element (and its instance) and the construct and says
    how to fix it; docs/hls-lint.md lists them.

    It runs after `np-flatten-graph`, `np-instantiate-elements` and
    `np-make-state-explicit`, when element and instance are one-to-one.
    It checks the elements of the instances of the flat top graph that are
    not placed `@host` (every element with `all-elements`, or when the
    module has no flat top graph), in all their bodies (init, handler,
    signal, timer, fini, read and write handlers, push bodies).

    Rejected (errors):
     - a loop without a bound: `scf.while`, `scf.for` whose bounds and step
       are not constants, a branch (unstructured control flow). NPL loops
       are bounded by construction (`for k in 0..N`, `unroll ... bound N`,
       `while c bound N` all become `scf.for` with constant bounds); an
       `np.bound = N` integer attribute on the loop declares a bound for
       hand-written IR;
     - dynamic allocation: `memref.alloc`/`memref.alloca` of a size known
       only at run time, `memref.realloc`; and any value of a memref type
       of dynamic shape (variable-size state or buffers);
     - calls the front end did not inline (NPL `fn`s are inlined, so none
       reach here): a call to a function that is not in the module or has
       no body, an indirect call, and recursion (the call that closes a
       cycle, with a note at every call of the cycle). Called functions are
       checked like the element's bodies;
     - packet handles that escape: the word of `np.pkt_to_word` used for
       anything but being stored into the element's state (a packet queue),
       and `np.word_to_pkt` of anything but a word loaded from state;
     - a table (`np.table`) whose memory is not element state, and
       `np.handler_load` (NPL's `load(path, handler)`): the FPGA has no
       file system to read a table from;
     - state larger than `max-state-bytes` bytes, and a packet queue of
       more than `max-queued-packets` packets (each queued packet is a
       frame buffer on the FPGA).

    Warned about: `np.print` and `np.print_pkt`, which only C simulation
    prints (synthesis drops `printf`).

    Accepted, with the reason in docs/hls-lint.md: `np.pkt_new` and
    `np.clone` (a packet is a flit stream of bounded length), devices
    (`np.device_recv`/`np.device_send` are the FPGA's network ports; a
    pcap file is the C simulation's), `np.now` (a cycle counter), timers,
    tables in state (their capacity is an attribute, a constant by
    construction) and statically sized local arrays.

    Example: in `np.element @Scan` of instance `s`,

    ```mlir
    scf.while : () -> () { ... } do { ... }
    ```

    is reported as `element 'Scan' (instance 's') cannot run on the FPGA:
    loop 'scf.while' has no bound: ...`.
  }];
  let options = [
    Option<"allElements", "all-elements", "bool", /*default=*/"false",
           "Check every element, also those of instances placed @host">,
    Option<"maxStateBytes", "max-state-bytes", "int64_t",
           /*default=*/"8 << 20",
           "Bytes a single state may take (on-chip memory)">,
    Option<"maxQueuedPackets", "max-queued-packets", "int64_t",
           /*default=*/"4096",
           "Packets a packet queue in state may hold">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

//===----------------------------------------------------------------------===//
// HLS optimisations (docs/hls-optimisations.md). Each changes only the
// elements its `elements` option selects and emits a remark where it fires;
// none changes what a program computes (test/examples/hls-opts-diff.test
// runs the reference interpreter with and without them).
//===----------------------------------------------------------------------===//

def ScatterMemory : Pass<"np-scatter-memory", "::mlir::ModuleOp"> {
  let summary = "Give every field of a struct array its own memory";
  let description = [{
    ClickNP's memory scattering (section 4.2.1). The front end already
    stores an array of structs `tab: [Ent; 64]` as one state per field
    (`@tab.key`, `@tab.val`, ...), each carrying `memory = "tab"`: on the
    FPGA they share one block RAM, as a C array of structs would, so two
    statements that touch different fields still wait for each other's
    memory port. This pass removes the `memory` attribute from every state
    of the selected elements, so that each field is a memory of its own
    (`hlsMemoryName` is then the state's own name) and HLS can schedule
    accesses to different fields in the same clock. Nothing else changes:
    the states, their types and every access stay as they are, which is
    why the C target and the interpreter, which ignore `memory`, compute
    the same with or without the pass. As in ClickNP, it applies to
    elements on the FPGA, not to those placed on the host.

    Remark, at the first field of each struct array scattered:
    `scattered 'tab' into 3 memories: key, val, hits`.

    Example:

    ```mlir
    np.state @tab.key : memref<64xi32> {memory = "tab"}
    np.state @tab.val : memref<64xi16> {memory = "tab"}
    ```

    becomes

    ```mlir
    np.state @tab.key : memref<64xi32>
    np.state @tab.val : memref<64xi16>
    ```
  }];
  let options = [
    Option<"elements", "elements", "std::string", /*default=*/"\"not-host\"",
           "The elements to change: `not-host` (those no instance of which "
           "is placed `host`, what the hls target compiles), `fpga` (those "
           "whose instances are all placed `fpga`) or `all`">
  ];
  let statistics = [
    Statistic<"numScattered", "scattered-memories",
              "Struct arrays split into one memory per field">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def HeaderWindow : Pass<"np-header-window", "::mlir::ModuleOp"> {
  let summary = "Prove packet accesses at computed offsets stay in the "
                "header window";
  let description = [{
    On the FPGA the first 128 bytes of a frame travel with the datum as
    registers (docs/hls-ii-report.md, "The model"): a read or write there
    is a multiplexer, not a port of the packet buffer's block RAM. An
    access at a constant offset is known to be inside; one at a computed
    offset (`p[oi]` in an option walk, `header<T>(p, off)`) is inside only
    if every value the offset can take keeps it there. This pass proves
    that, per access, in the packet-path bodies (`np.handler`, `np.push`)
    of the selected elements, and marks each access it proved with the
    unit attribute `np.header_window`; np-ii-report then counts it as a
    register. The ranges of `np.pkt_csum`, `np.pkt_crc` and `np.pkt_copy`
    (both of a copy's) are proved the same way, offset and length: the
    hls target streams past an element every flit after the window and
    reads a packet whole only before an access it could not prove
    (docs/hls-target.md, "Flits").

    The proof is a symbolic execution over bit vectors, decided by Z3:
    integers are terms, one-element locals (`memref.alloca` only loaded
    and stored) are followed through stores, and each `scf.if` narrows
    the path condition of its arms. Header fields read from a packet are
    any value of their width (an IPv4 `ihl` is at most 15, so `ihl * 4` is
    at most 60). A loop's body is executed once on locals that may hold
    anything the loop's invariants allow; the invariants are those of a
    small candidate set (a local at most `window-bytes` or 4 below it, a
    local at most another) that Houdini's algorithm shows inductive, and
    they are all the code after the loop knows of what the loop stored.
    What is not modelled (state, bytes of packets, calls) is an unknown
    value, so a proof holds whatever it is. Run it before np-unroll: a
    loop's body is proved once and np-unroll's copies keep the mark.

    Each query has a deterministic resource limit (Z3's `rlimit`); an
    access Z3 cannot decide within it stays unmarked, which costs II (and
    on the FPGA a packet read whole), not correctness.

    Remark, at an element where it marked something: `N packet accesses
    at computed offsets stay inside the 128-byte header window`, with
    `(M may leave it)` when some could not be proved.

    Example: after `let hlen = (header<IPv4>(p, 0).ihl as u32) * 4;`, a
    read `p[oi]` inside `while oi < hlen bound 40` becomes

    ```mlir
    %b = np.pkt_get %p, %off {np.header_window, width = 8 : i32} : i8
    ```
  }];
  let options = [
    Option<"elements", "elements", "std::string", /*default=*/"\"not-host\"",
           "The elements to change: `not-host` (those no instance of which "
           "is placed `host`, what the hls target compiles), `fpga` (those "
           "whose instances are all placed `fpga`) or `all`">,
    Option<"windowBytes", "window-bytes", "int64_t", /*default=*/"128",
           "Bytes of the header window">
  ];
  let statistics = [
    Statistic<"numProven", "proven-accesses",
              "Packet accesses at computed offsets proved inside the window">,
    Statistic<"numUnproven", "unproven-accesses",
              "Packet accesses at computed offsets not proved inside">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def Unroll : Pass<"np-unroll", "::mlir::ModuleOp"> {
  let summary = "Fully unroll the loops of the packet path";
  let description = [{
    ClickNP's loop unrolling (section 4.2.2): a loop in a handler takes one
    clock per iteration and caps the pipeline's throughput; unrolled, its
    iterations become a sequence of operations HLS schedules in one
    pipeline. In the bodies run per packet (`np.handler` and `np.push`; not
    `np.init`, `np.control`, `np.signal`, `np.timer` or `np.fini`) of the
    selected elements, every `scf.for` is replaced by copies of its body,
    one per iteration with the induction variable a constant, when

     - it carries `np.unroll` (NPL's `unroll k in a..b bound N`, whose
       iterations the front end already guards by `k < b`; also `while c
       bound N` loops the front end marks so): it is unrolled to its bound
       whatever `max-trip-count` says, as ClickNP's `.unroll` is; or
     - its trip count is constant and at most `max-trip-count` (NPL's `for`
       and `while ... bound N` have constant trip counts).

    Inner loops are unrolled first, so a nest of small loops is unrolled
    completely. Loop-carried values (`iter_args`) flow from one copy to the
    next, and folding then turns the per-iteration index arithmetic into
    constants.

    A loop that breaks keeps its semantics. The front end guards the
    statements after a `break`, a `return` or a false `while` condition by
    flags and states with `np.exit_loop_if %stop` that the rest of the loop
    does nothing once `%stop` holds. Before copying, every `np.exit_loop_if`
    becomes a guard: the rest of the iteration is moved into
    `scf.if (not %stop)` (with the current loop-carried values as the
    other branch's), so every later copy tests its own stop condition and
    does nothing once the loop has stopped, as the C target's `break`
    does.

    A loop without `np.unroll` an iteration of which receives (`np.recv`,
    `np.try_recv`, `np.device_recv`: Queue's drain of the arrivals that
    waited) is left alone: each iteration takes a datum of its own, so the
    loop is the pipeline, one datum per clock, as the handler's loop is;
    unrolled, every datum would pay for all the iterations.

    Remarks: `unrolled loop of N iterations` at each loop unrolled, and at
    each loop of the packet path left alone, why:
    `loop of N iterations not unrolled: more than max-trip-count (64)`,
    `loop not unrolled: unknown trip count` or
    `loop not unrolled: each iteration receives`.

    Example: in a handler,

    ```mlir
    scf.for %k = %c0 to %c2 step %c1 {
      %i = arith.index_castui %k : index to i32
      memref.store %i, %m[%k] : memref<2xi32>
    }
    ```

    becomes

    ```mlir
    memref.store %c0_i32, %m[%c0] : memref<2xi32>
    memref.store %c1_i32, %m[%c1] : memref<2xi32>
    ```
  }];
  let options = [
    Option<"elements", "elements", "std::string", /*default=*/"\"not-host\"",
           "The elements to change: `not-host` (those no instance of which "
           "is placed `host`, what the hls target compiles), `fpga` (those "
           "whose instances are all placed `fpga`) or `all`">,
    Option<"maxTripCount", "max-trip-count", "int64_t", /*default=*/"64",
           "Unroll loops without `np.unroll` of at most this many "
           "iterations">
  ];
  let statistics = [
    Statistic<"numUnrolled", "unrolled-loops", "Loops unrolled">,
    Statistic<"numKept", "kept-loops", "Packet-path loops not unrolled">
  ];
  let dependentDialects = ["::npcc::np::NPDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def DelayWrite : Pass<"np-delay-write", "::mlir::ModuleOp"> {
  let summary = "Forward a block RAM's last write through a register";
  let description = [{
    ClickNP's delayed write (section 4.2.1). A handler that reads and then
    writes a block RAM at a data-dependent index, as PCSA's
    `bitmap[h >> low] |= 1 << r` does, has a read-after-write dependence
    from one packet to the next: HLS cannot start the next packet's read
    before this packet's write, so II > 1. With a one-entry forward
    register that holds the last write, the next read takes its value from
    the register when it reads the index just written, and the memory's
    own read may be scheduled before the write lands.

    For every state of the selected elements that `hlsMemoryKind` puts in
    block RAM, that is not `shared`, that every body accesses only by
    `memref.load` and `memref.store` (through `np.state_ref` or
    `np.state_field`), and that the packet-path bodies (`np.handler`,
    `np.push`) both load and store, the pass adds three register states
    (see HLSMemory.h: `S.fwd_idx`, `S.fwd_val`, `S.fwd_valid`, each with
    `forward_of = "S"`) and, in the packet-path bodies,

     - after every `memref.store %v, %S[%i]`: stores of `%i`, `%v` and 1
       into the registers;
     - every `memref.load %S[%i]` becomes
       `fwd_valid && i == fwd_idx ? fwd_val : load %S[%i]`;

    after every store to S in any other body (init, control, signal,
    timer), `fwd_valid` is cleared. S is marked `delayed_write`.

    The memory is still written at once, so it holds exactly what it held
    without the pass, and the register equals S at `fwd_idx` whenever it is
    valid: every load returns the value it returned before, and no flush is
    needed. What the hardware gains is that the emitter may declare S free
    of inter-iteration dependences (`#pragma HLS DEPENDENCE ... inter
    false`).

    Remark, at the state: `forwarding the last write of 'S' through a
    register (N loads, M stores)`; and at a block RAM state the packet path
    loads and stores but the pass leaves alone, why.

    Example: in a handler,

    ```mlir
    %v = memref.load %bitmap[%i] : memref<8192xi32>
    %w = arith.ori %v, %bit : i32
    memref.store %w, %bitmap[%i] : memref<8192xi32>
    ```

    becomes

    ```mlir
    %m = memref.load %bitmap[%i] : memref<8192xi32>
    %valid = memref.load %fwd_valid[%c0] : memref<1xi1>
    %idx = memref.load %fwd_idx[%c0] : memref<1xi13>
    %val = memref.load %fwd_val[%c0] : memref<1xi32>
    %ii = arith.index_castui %i : index to i13
    %same = arith.cmpi eq, %ii, %idx : i13
    %hit = arith.andi %valid, %same : i1
    %v = arith.select %hit, %val, %m : i32
    %w = arith.ori %v, %bit : i32
    memref.store %w, %bitmap[%i] : memref<8192xi32>
    %si = arith.index_castui %i : index to i13
    memref.store %si, %fwd_idx[%c0] : memref<1xi13>
    memref.store %w, %fwd_val[%c0] : memref<1xi32>
    memref.store %true, %fwd_valid[%c0] : memref<1xi1>
    ```
  }];
  let options = [
    Option<"elements", "elements", "std::string", /*default=*/"\"not-host\"",
           "The elements to change: `not-host` (those no instance of which "
           "is placed `host`, what the hls target compiles), `fpga` (those "
           "whose instances are all placed `fpga`) or `all`">
  ];
  let statistics = [
    Statistic<"numDelayed", "delayed-states",
              "States whose last write is forwarded">
  ];
  let dependentDialects = ["::npcc::np::NPDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def IIReport : Pass<"np-ii-report", "::mlir::ModuleOp"> {
  let summary = "Report the initiation interval of every element on the FPGA";
  let description = [{
    Says, for every element instance, how many clocks apart the HLS
    target's code can take two data (its initiation interval, II), and
    why when that is more than 1. This is an analysis: the IR is not
    changed. docs/hls-ii-report.md gives the model; in short, the emitted
    handler is a loop pipelined at `II=1` that takes one datum (a packet's
    header and metadata, or an integer) per iteration, and the II it
    reaches is the largest of:

    - *ports*: a block RAM (HLSMemory.h: arrays of more than 16 elements;
      the fields of a struct array that keep a `memory` attribute are one
      block RAM) has 2 ports, so `k` accesses per datum take
      `ceil(k / 2)` clocks. Registers (scalars, small arrays, the slot
      words of a table, the first 64 bytes of the packet at constant
      offsets) have no limit. Packet bytes at computed offsets, or past
      the first 64, are accesses to the packet buffer, a block RAM too;
    - *stream*: a port moves one datum per clock, so `k` sends (or
      receives) on one port per datum take `k` clocks;
    - *dependence*: a block RAM that is read and written for every datum
      makes the next datum's read wait for this write (read latency 1):
      II 2, unless every state written has `delayed_write`
      (np-delay-write) or, for a struct array whose written fields are not
      read, the fields are scattered (np-scatter-memory);
    - *loop*: an `scf.for` that stays a loop takes its trip count times
      the clocks of its body (np-unroll flattens loops with constant
      bounds). A loop each iteration of which receives, or sends a packet
      while it cannot be unrolled (a source's burst, IPFragmenter's
      fragments, a Queue draining), is the pipeline itself: it costs its
      body's clocks per datum;
    - *table*: a lookup is pipelined (II 1); a hash table both looked up
      and changed per datum is a read-modify-write of a bucket (II 2); an
      LPM insert or remove on the packet path rewrites up to 4 trie levels
      (II 4).

    Branches count their busier arm: HLS shares a port between arms that
    exclude each other; a branch on a constant counts the arm it takes.
    Sends of one packet value on one port count once, since a packet is
    sent once (an early `return` leaves such sends in sequence). A source
    (a handler that receives nothing) has one datum per value it sends.
    Only the handler is on the packet path; `init`, `signal`, `timer` and
    control handlers do not count.

    For each instance the pass emits a remark at the element's source
    location, with a note at the place of each cause:

    ```
    pcsa.np:66:1: remark: II=2 for 'pcsa' (PCSA): state 'bitmap' is read
      and written for every datum: ... np-delay-write removes it
    pcsa.np:74:7: note: II=2: state 'bitmap' is read and written ...
    ```

    With `report=PATH` it also writes the report as JSON: `elements`, one
    object per instance (`name`, `element` (its source name), `symbol`,
    `location` (`file`, `line`, `col`), `ii`, and `reasons`, each with
    `kind`, `state`, `port` or `loop`, `ii`, `location` and `text`).
    `npcc::np::computeII` gives the same numbers to the HLS emitter and the
    driver.

    With `assume-hls-passes`, the report models the code after
    np-scatter-memory, np-unroll and np-delay-write, whether or not they
    ran: no state keeps a `memory`, every block RAM state has
    `delayed_write`, and every loop of at most 64 iterations with constant
    bounds is unrolled, each iteration with its own index (so branches on
    it, and packet offsets computed from it, fold). What is left is what
    those passes cannot remove.
  }];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the report as JSON to this file (- for standard output)">,
    Option<"assumeHLSPasses", "assume-hls-passes", "bool",
           /*default=*/"false",
           "Model the code as np-scatter-memory, np-unroll and "
           "np-delay-write leave it">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

#endif // NPCC_TARGETS_HLS_TRANSFORMS_PASSES_TD
