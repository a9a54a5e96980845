/*===- run.c - a run on one core, from the options to the report ---*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * The top of the runtime: opens what the options name (the control
 * socket, the devices, the PCIe link), runs the executor, then closes
 * everything and reports (statistics, -h). A multicore run is
 * run_cores.c.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/run.h"

#include "runtime/nprt/control.h"
#include "runtime/nprt/handlers.h"
#include "runtime/nprt/pcap_io.h"
#include "runtime/nprt/pcie.h"
#include "runtime/nprt/sched.h"
#include "runtime/nprt/stats.h"

#include <stdlib.h>
#include <string.h>

/* Refuses, before anything is opened for writing, an output (pcap or
 * statistics) that is an input or another output under any name. */
int nprt_run_check_output_paths(const nprt_options *o) {
  for (uint32_t i = 0; i <= o->n_outs; ++i) {
    const char *flag = i < o->n_outs ? "--out" : "--stats-json";
    const char *path = i < o->n_outs ? o->outs[i].path : o->stats_json;
    if (!path)
      continue;
    for (uint32_t k = 0; k < o->n_ins; ++k)
      if (nprt_same_file(path, o->ins[k].path)) {
        fprintf(o->err,
                "%s: error: %s '%s' is the input file '%s'; refusing to "
                "overwrite it\n",
                o->prog, flag, path, o->ins[k].path);
        return -1;
      }
    for (uint32_t k = 0; k < i && k < o->n_outs; ++k)
      if (nprt_same_file(path, o->outs[k].path) ||
          (strcmp(path, o->outs[k].path) == 0 && !nprt_is_char_device(path))) {
        fprintf(o->err, "%s: error: %s '%s' is also --out '%s'\n", o->prog,
                flag, path, o->outs[k].path);
        return -1;
      }
  }
  return 0;
}

int nprt_run_open_control(const nprt_options *o, nprt_control **c) {
  *c = NULL;
  if (!o->control)
    return 0;
  nprt_strbuf err = {0};
  *c = nprt_control_open(o->control, &err);
  if (!*c)
    fprintf(o->err, "%s: error: %s\n", o->prog,
            err.len ? nprt_strbuf_str(&err) : "out of memory");
  nprt_strbuf_free(&err);
  return *c ? 0 : -1;
}

/* The statistics of a run on one core, from its graph and executor. */
static int nprt_run_report(const nprt_exec *ex) {
  nprt_core_prof core = {ex->prof.end - ex->prof.start, ex->prof.wait,
                         ex->prof.windows, ex->prof.dropped};
  nprt_report r = {.graph = ex->graph,
                   .opts = ex->opts,
                   .prof_windows = ex->prof.windows,
                   .prof_dropped = ex->prof.dropped,
                   .cores = &core,
                   .n_cores = 1,
                   .status = ex->status};
  r.pool.allocated = ex->pool.allocated;
  r.pool.freed = ex->pool.freed;
  r.pool.live = ex->pool.live;
  r.pool.high_water = ex->pool.high_water;
  r.rx = nprt_devices_stats(&ex->devices, false, &r.n_rx);
  r.tx = nprt_devices_stats(&ex->devices, true, &r.n_tx);
  int rc = nprt_stats_report(&r);
  free(r.rx);
  free(r.tx);
  return rc;
}

static int nprt_execute(nprt_exec *ex, nprt_handler_report *report) {
  int rc = nprt_exec_schedule(ex);
  /* -h reads the state the run left, before fini empties the queues. */
  nprt_handler_report_collect(ex->graph, ex->opts, report);
  nprt_exec_wind_down(ex);
  return rc;
}

int nprt_run(nprt_graph *g, const nprt_options *o) {
  if (g->error[0]) {
    fprintf(o->err, "%s: error: %s\n", o->prog, g->error);
    return NPRT_EXIT_ERROR;
  }
  nprt_exec ex;
  nprt_exec_init(&ex, g, o);
  struct sigaction old[3];
  nprt_exec_catch_signals(old);
  int rc = NPRT_EXIT_ERROR;
  nprt_handler_report report;
  memset(&report, 0, sizeof(report));
  nprt_control *control = NULL;
  nprt_pcie *pcie = NULL;
  /* The control socket opens before any output file, so that a port in
   * use leaves the outputs untouched. */
  if (nprt_run_check_output_paths(o) == 0 &&
      nprt_exec_attach_signals(&ex) == 0 &&
      nprt_run_open_control(o, &control) == 0 &&
      nprt_devices_open(&ex.devices, true) == 0 &&
      nprt_pcie_start(&ex.devices, &pcie) == 0) {
    /* While the socket is open the run does not end when the graph cannot
     * move; it ends at `stop` or a signal. */
    if (control)
      nprt_control_serve(control, &ex);
    rc = nprt_execute(&ex, &report);
    int fpga = nprt_pcie_finish(pcie);
    if (fpga < 0)
      nprt_status_failed(&ex.status, false);
    /* The FPGA's part deadlocked (it named its instances): so did the
     * run, though the host's part drained. */
    if (fpga > 0 && rc == NPRT_EXIT_OK) {
      ex.status.deadlock = true;
      rc = NPRT_EXIT_DEADLOCK;
      nprt_sched_report_deadlock(&ex, o->err);
    }
    nprt_control_close(control);
    ex.hooks = (nprt_exec_hooks){0};
    /* Outputs are flushed and closed before the statistics, so that the
     * status they report includes the final write. */
    if (nprt_devices_close(&ex.devices) != 0)
      nprt_status_failed(&ex.status, false);
    rc = nprt_status_exit_code(&ex.status, rc);
    /* An init that failed (a table file) ended the run before it began:
     * like a device that cannot be opened, it leaves nothing to report. */
    if (!ex.status.init_failed && nprt_run_report(&ex) != 0)
      rc = NPRT_EXIT_ERROR;
    /* Click's driver reads -h handlers after the run; a missing one is an
     * error once the others are printed. */
    if (!ex.status.init_failed && nprt_handler_report_print(&report, o) != 0)
      rc = NPRT_EXIT_ERROR;
  } else {
    nprt_pcie_finish(pcie);
    nprt_control_close(control);
    nprt_devices_close(&ex.devices);
  }
  nprt_handler_report_free(&report);
  nprt_exec_free(&ex);
  nprt_exec_restore_signals(old);
  return rc;
}
