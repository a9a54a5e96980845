/*===- options.h - command line of a compiled npcc program ------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * What nprt_main understands: --in, --out, --stats, --stats-json, --signal,
 * -h/--handler, --control, --live, --duration, --quiet, --help, --version,
 * each long option as
 * `--opt value` or `--opt=value`. Also the output streams, so tests can run
 * the executor without touching stdout and stderr.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_OPTIONS_H
#define NPRT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Highest accepted device number + 1. */
#define NPRT_MAX_DEVICES 1024u
/* Longest --control unix:PATH + 1: the size of sockaddr_un's sun_path. */
#define NPRT_MAX_UNIX_PATH 108u

typedef struct nprt_dev_file {
  uint32_t dev;
  const char *path;
  uint32_t link_type, snaplen; /* outputs; 0: as the input's */
} nprt_dev_file;

/* A device of the program that is a PCIe slot to the FPGA (its path is
 * "pcie-slot:S"): what it sends or receives crosses to the C simulation
 * that --fpga names. */
typedef struct nprt_slot_dev {
  uint32_t dev;
  uint32_t slot;
  bool output;
  const char *sender; /* outputs: the instance that sends to the slot */
} nprt_slot_dev;

/* NAME=VALUE on the command line: replaces the file of the devices whose
 * path came from Click's `$NAME`. */
typedef struct nprt_define {
  const char *name; /* points into argv: NAME ends at '=' */
  size_t name_len;
  const char *value;
  bool used;
} nprt_define;

typedef struct nprt_signal_req {
  char *inst;
  uint64_t value;
} nprt_signal_req;

typedef struct nprt_options {
  const char *prog;    /* for diagnostics: "prog: error: ..." */
  const char *program; /* the NPL program, for the stats */
  nprt_dev_file *ins, *outs;
  uint32_t n_ins, n_outs;
  /* The program's PCIe-slot devices, and --fpga: the FPGA's C simulation
   * the executable runs and exchanges their packets with. */
  nprt_slot_dev *slots;
  uint32_t n_slots;
  const char *fpga;
  /* The devices only the FPGA's instances use (path "fpga-device" in the
   * program's table): their files, moved here from `ins` and `outs`, are
   * the simulation's, passed to it as --in and --out. */
  nprt_dev_file *fpga_ins, *fpga_outs;
  uint32_t n_fpga_ins, n_fpga_outs;
  nprt_signal_req *signals;
  uint32_t n_signals;
  nprt_define *defines;
  uint32_t n_defines;
  const char *stats_json;
  /* -h ELEMENT.HANDLER: read handlers printed after the run, in order. */
  const char **handlers;
  uint32_t n_handlers;
  /* --control: "PORT" (TCP on 127.0.0.1) or "unix:PATH"; NULL: none. */
  const char *control;
  /* --live: the clock is the host's (CLOCK_MONOTONIC), timers fire at real
   * time; otherwise trace time, and virtual time between timers. */
  bool live;
  /* --duration: how long the run's clock may run, in ns; 0: no limit. */
  int64_t duration_ns;
  bool quiet;
  /* --stats: measure cycles per element (sampled) and print the profile
   * table; --stats-json measures them too. */
  bool stats;
  /* --cores: worker threads, 0 when not given (the program's default). */
  uint32_t cores;
  /* --mapping: NPRT_MAPPING_*; `mapping_given` when on the command line. */
  uint32_t mapping;
  bool mapping_given;
  /* --sim[=CONFIG]: run on npsim, the NPU simulator (docs/npsim.md), with
   * machine CONFIG (a shipped name or a file; "" for the default); NULL:
   * the host's threads. --contexts: hardware contexts per core (0: the
   * configuration's); --set TABLE.KEY=VALUE changes the configuration;
   * --sim-json and --trace-json write the simulator's report and a
   * Chrome/Perfetto trace. Only an executable built with `npcc --sim`
   * runs them. */
  const char *sim;
  uint32_t contexts;
  const char **sim_sets;
  uint32_t n_sim_sets;
  const char *sim_json;
  const char *trace_json;
  /* Stack of each instance's green thread; 0: the default (256 KiB). A
   * host that runs deeper code on it (the reference interpreter) asks for
   * more. */
  size_t stack_bytes;
  FILE *out; /* statistics table; stdout by default */
  FILE *err; /* diagnostics; stderr by default */
} nprt_options;

/* Defaults: no devices, print to stdout/stderr. */
void nprt_options_init(nprt_options *o, const char *prog, const char *program);
void nprt_options_free(nprt_options *o);

typedef enum nprt_parse_result {
  NPRT_PARSE_RUN,  /* options valid: run the program */
  NPRT_PARSE_HELP, /* --help or --version was printed: exit 0 */
  NPRT_PARSE_ERROR /* a diagnostic was printed: exit 1 */
} nprt_parse_result;

nprt_parse_result nprt_options_parse(nprt_options *o, int argc, char **argv);
/* Adds the files the program names for devices the command line left
 * out, NAME=VALUE applied; an error if a NAME=VALUE matched no device. */
struct nprt_device_desc;
nprt_parse_result nprt_options_add_program_devices(
    nprt_options *o, const struct nprt_device_desc *devs, uint32_t n);
void nprt_options_usage(const nprt_options *o, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_OPTIONS_H */
