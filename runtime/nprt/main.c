/*===- main.c - nprt_main, the entry point of compiled programs -*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Parses the command line, builds the graph the generated program describes,
 * runs it and returns the exit code. The only place that knows about argv.
 * A program in the compact form (program_expand.h) is expanded first:
 * everything below sees the full tables.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/program_expand.h"
#include "runtime/nprt/run.h"

#include "nprt/host.h"

#include <errno.h>
#include <string.h>

static const char *nprt_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

int nprt_main(int argc, char **argv, const nprt_program *program) {
  return nprt_main_hosted(argc, argv, program, NULL);
}

/* nprt_main_hosted on a program in the full form, `prog` named. */
static int nprt_main_full(int argc, char **argv, const nprt_program *program,
                          const nprt_host *host, const char *prog) {
  nprt_options opts;
  nprt_options_init(&opts, prog, program->name);
  if (host)
    opts.stack_bytes = host->stack_bytes;
  nprt_parse_result r = nprt_options_parse(&opts, argc, argv);
  if (r == NPRT_PARSE_RUN)
    r = nprt_options_add_program_devices(&opts, program->devices,
                                         program->n_devices);
  if (r == NPRT_PARSE_HELP) {
    /* The help or version text is the output: check that it was written. */
    errno = 0;
    if (fflush(opts.out) != 0 || ferror(opts.out)) {
      fprintf(opts.err, "%s: error: cannot write to stdout: %s\n", opts.prog,
              strerror(errno ? errno : EIO));
      r = NPRT_PARSE_ERROR;
    }
  }
  if (r != NPRT_PARSE_RUN) {
    nprt_options_free(&opts);
    return r == NPRT_PARSE_HELP ? NPRT_EXIT_OK : NPRT_EXIT_ERROR;
  }
  uint32_t cores = opts.cores       ? opts.cores
                   : program->cores ? program->cores
                                    : 1;
  uint32_t mapping = opts.mapping_given ? opts.mapping : program->mapping;
  if (cores > 1 && opts.n_slots) {
    fprintf(opts.err,
            "%s: error: a program with PCIe slots to an FPGA runs on one "
            "core\n",
            opts.prog);
    nprt_options_free(&opts);
    return NPRT_EXIT_ERROR;
  }
#ifdef NPRT_SIM
  if (opts.sim) {
    if (opts.n_slots) {
      fprintf(opts.err,
              "%s: error: a program with PCIe slots to an FPGA cannot run "
              "on npsim\n",
              opts.prog);
      nprt_options_free(&opts);
      return NPRT_EXIT_ERROR;
    }
    int rc = nprt_run_sim(program, &opts);
    nprt_options_free(&opts);
    fflush(stdout);
    return rc;
  }
#endif
  if (cores > 1) {
    int rc = nprt_run_cores(program, &opts, cores, mapping);
    nprt_options_free(&opts);
    fflush(stdout);
    return rc;
  }
  nprt_graph *g = nprt_graph_create();
  if (!g) {
    fprintf(opts.err, "%s: error: out of memory\n", opts.prog);
    nprt_options_free(&opts);
    return NPRT_EXIT_ERROR;
  }
  nprt_graph_load(g, program);
  int rc = nprt_run(g, &opts);
  nprt_graph_destroy(g);
  nprt_options_free(&opts);
  fflush(stdout);
  return rc;
}

int nprt_main_hosted(int argc, char **argv, const nprt_program *program,
                     const nprt_host *host) {
  const char *prog =
      argc > 0 && argv[0] ? nprt_basename(argv[0]) : program->name;
  if (!prog)
    prog = "nprt";
  nprt_program full;
  void *storage;
  if (nprt_program_expand(program, &full, &storage, stderr, prog) != 0)
    return NPRT_EXIT_ERROR;
  int rc = nprt_main_full(argc, argv, &full, host, prog);
  nprt_program_expand_free(storage);
  return rc;
}
