//===- Passes.td - the C target's core mapping -------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// How the C target runs a program on the runtime: channels compiled into
// direct calls (np-fuse) and the mapping onto several cores
// (docs/multicore.md).
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_C_MAPPING_PASSES_TD
#define NPCC_TARGETS_C_MAPPING_PASSES_TD

include "mlir/Pass/PassBase.td"

def Fuse : Pass<"np-fuse", "::mlir::ModuleOp"> {
  let summary = "Compile channels into direct calls (push fusion)";
  let description = [{
    Makes the runtime's pushed calls static. A handler of push shape
    (`np::pushPortMask`: it receives once, first, and neither reads a device
    nor ends its instance) is run by the runtime as a call on its sender's
    stack each time a value reaches it: the sender puts the value into the
    channel, the runtime calls the handler through a pointer, the handler
    takes the value out again. For a channel where that is the case on every
    send, this pass writes the call into the program instead: the consumer
    gets an `np.push` body (its handler, handed the value as an argument),
    the producer's `np.send`s on the port become `np.fused_send`s that call
    it, and the `np.connect` is marked `fused`. A chain of such channels is
    a chain of direct calls that a C compiler inlines into one function per
    path: a packet crosses it with no queue and no context switch.

    A connection `A::@o -> B::@i` of the flat top graph is fused when
     - both are instances of elements of their own (np-instantiate-elements)
       with the same placement;
     - it is lossless: a lossy channel must keep dropping when full;
     - `B`'s handler starts with a plain `np.recv @i` and the runtime keeps
       `B` pushed to after settling: every lossless channel out of `B` leads
       to a port that is pushed to in turn (as `nprt_graph_settle_push`
       decides, the largest such set), so a call never waits long on a full
       queue further down (an element in front of a Queue that can fill
       stays a thread of its own). A handler that starts with `np.select`
       gets a push body for `@i` when the select's answer for a value on
       `@i` (its position among the select's ports), folded, leaves a plain
       `np.recv @i` first; the runtime moves the select's round-robin start
       on each call as the select would have;
     - it closes no cycle of fused connections. Connections are taken in
       order, and one is left a channel if the fused connections chosen
       before it already lead from `B` back to `A` (a packet that goes
       around a cycle still re-enters elements, through the runtime).

    Nothing else changes: the channel keeps its depth and counters, `B`'s
    handler and thread stay (they take the values the runtime does not
    hand over as calls: before the run starts, past 64 nested calls, when
    the channel is not empty), and a fused program's output, order and
    statistics are the unfused program's. The pass changes nothing in a
    module without a `top` graph.

    Example: with `@Cnt` a Counter (`%p = np.recv @i`, count, `np.send @o,
    %p`),

    ```mlir
    np.graph @Top attributes {top} {
      np.instance @src of @Src
      np.instance @cnt of @Cnt
      np.instance @sink of @Sink
      np.connect @src::@o to @cnt::@i depth 64
      np.connect lossy @cnt::@o to @sink::@i depth 8
    }
    ```

    becomes

    ```mlir
    np.graph @Top attributes {top} {
      ...
      np.connect fused @src::@o to @cnt::@i depth 64
      np.connect lossy @cnt::@o to @sink::@i depth 8
    }
    ```

    with `np.fused_send @o, %p to @Cnt::@i : !np.pkt` in `@Src` and, in
    `@Cnt`, next to its handler:

    ```mlir
    np.push @i {
    ^bb0(%self: !np.self, %p: !np.pkt):
      ... count ...
      np.send @o, %p : !np.pkt
    }
    ```
  }];
  let statistics = [
    Statistic<"numFused", "fused-channels",
              "Channels compiled into direct calls">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

def MapCores : Pass<"np-map-cores", "::mlir::ModuleOp"> {
  let summary = "Classify state and plan rtc and pipeline mappings";
  let description = [{
    Annotates every `np.program` with an `np.mapping` dictionary, the facts
    a multicore run and `npcc --explain-mapping` use (docs/multicore.md):

    - `replicate`, `why`, `notes`: whether each instance can run on every
      core (run to completion, ingress spread by a flow hash) and, if not,
      why it runs once on core 0; the state decisions. An instance is
      replicated when its handler writes no state per packet except fields
      declared `merge` and updated only with their operator (`x = x + e`
      for `sum`), has no timer, prints nothing and is not a source without
      a device. Tables read per packet and written by control handlers are
      copied per core.
    - `cost`, `work`: a static cost per activation (roughly instructions;
      constant-trip loops multiplied out) and the work per packet read (the
      cost times the share of the traffic the instance sees: sources see
      1, an instance splits its share evenly over its outputs).
    - `stages`: for every core count 1..16, the pipeline stage of every
      instance: strongly connected components in topological order cut
      into contiguous stages that minimise the busiest stage, each cut
      paying for the values crossing it.
    - `auto_pipeline`, `rtc_estimate`, `pipeline_estimate`: per core count,
      whether `auto` picks the pipeline, and the busiest core's estimated
      work under each mapping (thousandths).
    - with `profile=FILE` (`npcc --profile=FILE`, the executable's
      `--stats-json` output): `profile` (the file) and `measured` (per
      instance): the instances the profile names cost their measured cycles
      per activation, do their measured cycles per packet read as work, and
      send their measured share of the traffic on each output, in place of
      the static estimates (one estimated unit counts as one cycle).

    Example: `np.program @P elements [@A, @B] ...` gains
    `{np.mapping = {replicate = array<i1: true, false>, ...}}`.
  }];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "A --stats-json file whose measured cycles and traffic replace "
           "the static estimates of the instances it names">
  ];
  let dependentDialects = ["::npcc::np::NPDialect"];
}

#endif // NPCC_TARGETS_C_MAPPING_PASSES_TD
