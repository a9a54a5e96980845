//===- Passes.td - the C target's core mapping -------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// How the C target runs a program on several cores (docs/multicore.md).
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_C_MAPPING_PASSES_TD
#define NPCC_TARGETS_C_MAPPING_PASSES_TD

include "mlir/Pass/PassBase.td"

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
