/*===- cores.h - running one program on several cores --------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each core is a worker thread running the single-core executor on its own
 * graph, with its own packet pool, stacks, clock and input readers; nothing
 * is shared but the lanes between cores, the output files and a few
 * counters. docs/multicore.md describes the mappings; in short:
 *
 *  - rtc: each core takes its share of the flows (a hash of the IPv4
 *    address pair, else of the source MAC) from one ingress per input
 *    (core_dev.c: whichever core runs out scans the next stretch of the
 *    mapped file and hands every core descriptors of its records), and
 *    runs its own copy of every replicable instance. Instances that run once
 *    (np-map-cores: their state is order-sensitive) live on core 0; values
 *    sent to them travel on lanes, and core 0 takes them in the order of
 *    the packets that caused them, merging the lanes by sequence number
 *    (the packet's index in its input) and each core's watermark: the
 *    sequence number below which it will send nothing more. What they send
 *    goes to a second copy of the replicable instances on core 0 (the
 *    tail), whose values for run-once instances queue behind the others.
 *  - pipeline: instance i runs on core stages[i]; stages only send to later
 *    stages, over the lane to the next core, which relays what is for a
 *    later one: every lane is FIFO and needs no merging.
 *
 * A lane's two ends are instances the runtime adds: a lane-out per channel
 * crossing cores (a push-shaped sink that sends the value to its lane
 * device, which stamps it and puts it on the lane) and one lane-in per
 * receiving core (a source with one output per incoming channel, which
 * receives from its lane device in merged order). The lane devices are a
 * kind behind device.h's table; everything else is the single-core
 * executor.
 *
 * With --control, the thread that started the cores serves the clients and
 * hands each handler call to the cores through one mailbox per core, which
 * the core runs between two scheduler rounds (core_control.c).
 *
 * The files of the multicore layer (README.md, "Layers"), which sits on
 * the executor and below the run:
 *   core_steer.c      flow steering: which core a packet belongs to
 *   core_dev.c        each core's devices: its share of the input, its
 *                     records for the shared outputs (device.h)
 *   core_lanes.c      lanes between cores and the ordered merge
 *   core_partition.c  partitioning: each core's graph, lane ends included
 *   core_merge.c      state merge: the copies of a replicated instance
 *   core_control.c    control relay: handler calls handed to the cores
 *   cores.c           the cores' threads, set-up and tear-down
 *   run_cores.c       the run (run.h): options, threads, the report
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_CORES_H
#define NPRT_CORES_H

#include "runtime/nprt/executor.h"
#include "runtime/nprt/graph_build.h"
#include "runtime/nprt/lane.h"
#include "runtime/nprt/pcap_io.h"

#include <pthread.h>
#include <stddef.h>

typedef struct nprt_core nprt_core;
typedef struct nprt_multi nprt_multi;
typedef struct nprt_ingress nprt_ingress;

/* Messages core 0 may hold for itself before its input waits for the
 * merge to catch up (rtc). */
#define NPRT_SELF_QUEUE_LIMIT 4096u

/* A growable FIFO of messages a core sends itself (rtc, core 0): producer
 * and consumer are the same thread. */
typedef struct nprt_msgq {
  nprt_lane_msg *v;
  size_t head, n, cap;
} nprt_msgq;

/* Where copy `copy` of program instance `inst` lives in a core's graph. */
enum { NPRT_COPY_MAIN = 0, NPRT_COPY_TAIL = 1 };

/* How a local channel of a core's graph stands for a program channel, for
 * the statistics: it carries the producer's side (sends), the consumer's
 * (receives), or both. */
typedef struct nprt_chan_ref {
  uint32_t prog;
  bool src, dst;
} nprt_chan_ref;

/* A handler call the control thread hands a core (--control; see "Handlers
 * during the run"). */
typedef enum nprt_cmd_kind {
  NPRT_CMD_WRITE, /* write handler `handler` on every copy of `inst` */
  NPRT_CMD_MERGE, /* folds the merged fields of the copies that are not
                   * the primary into `acc` */
  NPRT_CMD_READ,  /* MERGE, then read handler `handler` of the primary
                   * copy with `acc` folded into its state, into `result` */
  NPRT_CMD_STOP,  /* `WRITE stop`: ingress ends, as on a signal */
} nprt_cmd_kind;

typedef struct nprt_cmd {
  nprt_cmd_kind kind;
  uint32_t inst;    /* program instance */
  uint32_t handler; /* index in its handler table */
  uint64_t args[NPRT_MAX_HANDLER_ARGS];
  uint8_t *acc, *save; /* state-sized buffers of the control thread */
  uint64_t result;
} nprt_cmd;

/* A core's records for one shared output device, appended to the file a
 * whole buffer at a time. */
typedef struct nprt_core_out {
  nprt_pcap_out fmt; /* the device's precision and cut, for the records */
  bool file;         /* the device has a file (else: counted only) */
  uint8_t *data;     /* NPRT_PCAP_OUT_BUF bytes, once needed */
  size_t used;
  uint64_t packets, bytes; /* not yet added to the device */
  /* --sim: every record is kept (`data` grows to `cap`) with the sequence
   * number of the packet it came from and the cycle it left, and the
   * cores' records are written in that order when the run ends: the
   * egress engines keep the order one core gives, as the PowerNP's
   * completion unit keeps frame order. */
  struct nprt_sim_rec {
    uint64_t seq, cycle;
    size_t off, n;
    uint32_t len;
  } *recs;
  size_t n_recs, cap_recs, cap;
} nprt_core_out;

struct nprt_core {
  nprt_multi *m;
  uint32_t id;
  nprt_graph *graph;
  nprt_exec ex;
  /* Local instance -> program instance (UINT32_MAX: a lane end), and
   * whether it is the copy whose state starts as declared (the others
   * start merged fields at their identity). */
  uint32_t *prog;
  bool *primary;
  uint32_t n_local, cap_local;
  nprt_chan_ref *chans;
  uint32_t cap_chans;
  uint32_t lane_in; /* local id of the lane-in, or UINT32_MAX */
  nprt_msgq self;
  uint64_t cur_seq;
  uint64_t *records; /* per input device: records read so far */
  /* A simulated run: per input device, where this core's packets lie in
   * the file (the ingress engine's scan, sim_run.c), so that it goes from
   * one to the next instead of passing every other core's. */
  struct nprt_sim_skip *skip;
  uint32_t n_skip;
  /* rtc with a serial core 0: the inputs it reads only for their time
   * stamps (clock ticks, core_lanes.c), by device number. */
  struct nprt_core_clock_in {
    uint32_t dev;
    nprt_pcap_in *pcap;
  } *clock_in;
  uint32_t n_clock_in;
  uint32_t idle; /* lane-in polls in a row that found nothing */
  uint32_t starved; /* ingress reads in a row that found nothing */
  /* rtc, core 0's merge: each source's oldest message (m->n of them; a
   * simulated run has up to 512 cores). */
  const nprt_lane_msg **heads;
  uint64_t reads;      /* packets this core took from its input */
  nprt_core_out *outs; /* per output device */
  uint32_t n_outs;
  pthread_t thread;
  int rc;
  /* Watermark: this core will send nothing more with a lower sequence
   * number; UINT64_MAX once it finished. */
  _Alignas(64) _Atomic uint64_t done;
  _Atomic bool finished;
  /* The core takes nothing more from the ingresses (its ingress stopped,
   * it finished or failed): they drop its records instead of waiting for
   * room in its rings (core_dev.c). */
  _Atomic bool in_closed;
  /* --control: the core's mailbox. The control thread writes `cmd`, then
   * moves `posted`; the core runs it between two scheduler rounds and sets
   * `acked` to `posted`. One command at a time. */
  nprt_cmd cmd;
  _Alignas(64) _Atomic uint64_t posted;
  _Atomic uint64_t acked;
};

typedef struct nprt_sim_skip {
  uint64_t *off, *index; /* the record's offset in the file, its number */
  size_t n, at;
  uint64_t end_off, end_index; /* where the scan stopped: end or error */
  bool on; /* the file is mapped: offsets to go to */
} nprt_sim_skip;

typedef struct nprt_edge {
  bool lane;         /* crosses cores */
  uint32_t dst_core; /* where its consumer is */
  uint32_t in_port;  /* the lane-in's output port for it there */
} nprt_edge;

struct nprt_multi {
  const nprt_program *program;
  const nprt_options *opts;
  uint32_t n; /* cores with work */
  bool pipeline;
  /* rtc with a run-once instance that has a timer: its time must follow
   * the merged order alone, so core 0 takes no share of the input. It
   * reads every input for its time stamps instead, and its clock passes
   * them in the merged order (clock ticks), so its timers fire between
   * the same two packets as on one core. */
  bool serial_core;
  /* pipeline: the last core whose stage runs a timer (0: none). Core 0,
   * which reads every packet, sends each one's time stamp (a tick) down
   * the lanes to it, so that the clocks of the later stages pass the
   * same times as one core's, whether or not the packet reaches them. */
  uint32_t tick_to;
  bool oversubscribed; /* more cores than CPUs */
  nprt_core *cores;
  nprt_lane **lanes; /* [from * n + to], NULL where unused */
  nprt_edge *edges;  /* per program channel */
  bool *replicate;   /* rtc: per program instance */
  bool *tail;        /* rtc: has a tail copy on core 0 */
  uint32_t **local;  /* [core][program instance]: main copy, or UINT32_MAX */
  uint32_t *tail_local;
  pthread_mutex_t out_lock;
  /* The output devices all cores share (pcap files, opened by core 0),
   * under out_lock; each core gathers its records for them (core_dev.c). */
  nprt_devices outs;
  bool outs_open;
  _Atomic bool abort; /* a core failed: the others stop waiting on it */
  _Atomic bool stop;  /* an output failed: every core's input ends */
  /* Per input device: its one ingress (rtc, a mapped file, several cores
   * reading it, not simulated; core_dev.c), or NULL: each core then reads
   * the file itself. */
  nprt_ingress **ingress;
  uint32_t n_ingress;
  /* Per input device: its read error was reported (once: every core
   * reads the file). */
  _Atomic bool read_error[NPRT_MAX_DEVICES];
  /* Cores past their init (the run's init barrier, kept across cores: no
   * packet moves until every core's init succeeded). */
  _Atomic uint32_t at_run;
  /* --control: buffers the size of the largest state object, for reads
   * (nprt_cmd's `acc` and `save`). */
  uint8_t *cmd_acc, *cmd_save;
  /* --sim: the simulated machine whose contexts the cores are (sim.h);
   * NULL on the host's threads. */
  struct npsim_machine *sim;
};

/* A lane end's device (kind "lane", core_lanes.c): the lane-out sends
 * through its tx_burst, the lane-in receives through its rx_burst, in the
 * order the merge gives. A lane carries a channel's values: a packet as
 * itself, any other value in the device's `carrier`, whose `anno` holds
 * it. Made by the partitioning (no `open`); not among the executor's
 * numbered devices. */
typedef struct nprt_lane_dev {
  nprt_core *core;
  nprt_pkt carrier;
  nprt_lane_msg last; /* rx: the message rx_burst returned last */
  /* Messages carried (values too), and the bytes of their packets. */
  uint64_t packets, bytes;
} nprt_lane_dev;

/* A lane-out's state object. */
typedef struct nprt_lane_out {
  uint32_t edge;
  uint32_t to;     /* the next core on the way */
  bool self;       /* feeds its own core (rtc, core 0) */
  bool main;       /* a main copy's (counts in self_feeders) */
  nprt_device dev; /* nprt_lane_tx_ops, `impl` the next member */
  nprt_lane_dev lane;
} nprt_lane_out;

/* The lane-in's state object. */
typedef struct nprt_lane_in {
  nprt_device dev; /* nprt_lane_rx_ops, `impl` the next member */
  nprt_lane_dev lane;
} nprt_lane_in;

/* The core whose executor `ex` is. */
static inline nprt_core *nprt_core_of(nprt_exec *ex) {
  return (nprt_core *)(void *)((char *)ex - offsetof(nprt_core, ex));
}

/* core_steer.c: the core (of `n`) whose share of the flows the frame
 * `b` (`len` bytes of link type `linktype`) belongs to. */
uint32_t nprt_flow_core(const uint8_t *b, uint32_t len, int linktype,
                        uint32_t n);

/* core_dev.c: the kinds of a core's devices (device.h). Their `open`
 * finds the core in `impl` (nprt_devices.kind_ctx). */
extern const nprt_device_ops nprt_core_in_ops;
extern const nprt_device_ops nprt_core_out_ops;
/* The file a core's input device reads (to share one mapping), or NULL. */
nprt_pcap_in *nprt_core_dev_pcap(const nprt_device *d);
/* Appends what every core still gathers to the shared outputs. */
void nprt_multi_flush_outputs(nprt_multi *m);
/* Makes one ingress for each input device the cores read from a mapped
 * file (rtc, several cores reading, not simulated), once every core's
 * devices are open; -1 (reported) when memory is out. */
int nprt_multi_open_ingress(nprt_multi *m);
void nprt_multi_free_ingress(nprt_multi *m);

/* core_lanes.c. */
/* The lane ends as devices (nprt_lane_dev). */
extern const nprt_device_ops nprt_lane_tx_ops;
extern const nprt_device_ops nprt_lane_rx_ops;
/* Makes `d` a lane end of `core` of kind `ops`, its state `lane`. */
void nprt_lane_dev_init(nprt_device *d, nprt_lane_dev *lane, nprt_core *core,
                        const nprt_device_ops *ops);
/* Publishes every message this core wrote to its lanes. */
void nprt_core_flush(nprt_core *core);
/* pipeline, core 0: sends the time stamp of the packet just read down the
 * lanes (nprt_multi.tick_to). */
void nprt_core_send_tick(nprt_core *core, int64_t ts);
/* The handlers of the lane ends the partitioning adds. */
void nprt_lane_out_handler(nprt_inst *self);
void nprt_lane_out_fini(nprt_inst *self);
void nprt_lane_in_handler(nprt_inst *self);
/* Frees what is left in the lanes (after a stop or a failure): counted as
 * drops of the lane-in. */
void nprt_multi_drain(nprt_multi *m);

/* core_partition.c: each core's graph for `m` (pipeline: instance i on
 * core stages[i]); -1 (reported if not out of memory) on failure. */
int nprt_multi_build(nprt_multi *m, const uint8_t *stages);

/* core_merge.c. */
/* Sets the merged fields of a copy that is not the primary to their
 * identity, so that the copies add up to the state one core would have. */
void nprt_merge_reset(const nprt_instance_desc *d, void *state);
/* Folds the merged fields of `copy` into `acc`. */
void nprt_merge_into(const nprt_instance_desc *d, void *acc, const void *copy);
/* The core reaches its run phase: copies that are not the primary start
 * their merged fields at identity (nprt_exec_hooks.run_phase). */
void nprt_core_enter_run(void *core);

/* core_control.c. */
/* Between two scheduler rounds: runs the handler call the control thread
 * posted to this core, if any (nprt_exec_hooks.round). */
void nprt_core_tick(void *core);
/* The control thread's handler calls, relayed to the cores' copies
 * (`ctx` the nprt_multi; the relays of nprt_handler_ctx): a write reaches
 * every copy, each between two packets of its core; a read sees the
 * copies combined (merged fields folded, the rest the primary's), as the
 * statistics and `-h` do; `WRITE stop` ends ingress on every core. Each
 * returns once every core is done. */
void nprt_multi_write(void *ctx, uint32_t inst, uint32_t handler,
                      const uint64_t *args);
uint64_t nprt_multi_read(void *ctx, uint32_t inst, uint32_t handler);
void nprt_multi_stop(void *ctx);

/* sim_run.c (the simulator's flavour only). */
/* Before the run: each core's context, where each instance's state lies
 * in the simulated memories, the ingress engine's packets; -1 (reported)
 * when a state does not fit its memory. */
int nprt_sim_prepare(nprt_multi *m);
/* Frees what nprt_sim_prepare gave the cores. */
void nprt_sim_free_skips(nprt_multi *m);
/* Which core reads an input record of device `dev` (flow steering, as
 * the core's input device decides). */
uint32_t nprt_core_in_owner(const nprt_multi *m, uint32_t dev,
                            const uint8_t *bytes, uint32_t caplen,
                            int linktype);
/* A simulated core whose graph cannot move waits for the switch matrix
 * (nprt_exec_hooks.idle; sim_run.c). */
void nprt_sim_matrix_idle(void *core, const struct timespec *timeout);

/* cores.c. */
/* Sets up each core's executor once its graph is built. */
void nprt_multi_init_cores(nprt_multi *m);
/* Starts the cores' threads; -1 (reported) if one cannot start. */
int nprt_multi_start(nprt_multi *m);
/* Waits for every core; the worst of their NPRT_EXIT_* codes. */
int nprt_multi_join(nprt_multi *m);
void nprt_multi_free(nprt_multi *m);

#endif /* NPRT_CORES_H */
