/*===- pcie.c - PCIe-slot devices to the FPGA's C simulation ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * See pcie.h. One link (nprt_pcie) holds the simulation and every slot's
 * batches; each slot device (device.h, kind "pcie-slot") names its link
 * and slot.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/pcie.h"

#include "runtime/nprt/pcie_msg.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A packet the FPGA sent, its number in the FPGA's order of sending, and
 * the FPGA's clock when it sent it. */
typedef struct nprt_pcie_answer {
  nprt_pkt *pkt;
  uint64_t seq;
  int64_t clock;
} nprt_pcie_answer;

/* A FIFO of answers: items [head, n) of `at`. */
typedef struct nprt_pcie_queue {
  nprt_pcie_answer *at;
  uint32_t head, n, cap;
} nprt_pcie_queue;

struct nprt_pcie {
  int fd;
  pid_t pid;
  bool failed;  /* reported; what is sent later is dropped (counted) */
  bool pending; /* packets sent since the last SYNC */
  bool more;    /* the FPGA's own input devices have packets left */
  /* Slots whose sender ended (a bit per slot): the host's, to tell the
   * FPGA at the next SYNC, and the FPGA's, as its last SYNC said. */
  uint32_t tx_closed, rx_closed;
  /* The FPGA's clock at its last SYNC (INT64_MIN: not started), and
   * whether no receiver passed it to the host's clock yet. */
  int64_t fpga_clock;
  bool tick;
  nprt_pcie_msg *tx[NPRT_PCIE_SLOTS];
  /* What the FPGA sent on each slot, not taken yet, in order. */
  nprt_pcie_queue rxq[NPRT_PCIE_SLOTS];
  nprt_pcie_msg in;
  uint64_t late; /* answers no receiver took, or sent after END (dropped) */
  uint64_t seq;  /* packets sent to the FPGA so far */
  const nprt_dev_host *host;
  /* The slot devices' states, one per --fpga slot option. */
  struct nprt_pcie_slot_dev *devs;
};

static bool nprt_pcie_queue_push(nprt_pcie_queue *q, nprt_pkt *p, uint64_t seq,
                                 int64_t clock) {
  if (q->head == q->n)
    q->head = q->n = 0;
  if (q->n == q->cap) {
    uint32_t cap = q->cap ? 2 * q->cap : 64;
    nprt_pcie_answer *at = realloc(q->at, cap * sizeof(*at));
    if (!at)
      return false;
    q->at = at;
    q->cap = cap;
  }
  q->at[q->n++] = (nprt_pcie_answer){p, seq, clock};
  return true;
}

static bool nprt_pcie_queue_empty(const nprt_pcie_queue *q) {
  return q->head == q->n;
}

/* Whether the packet at the head of `slot`'s queue is the first the FPGA
 * sent of all that are queued: on one core the instance that receives it
 * gets it before any that came after it, on whichever slot (npsmith, seed
 * 301970). */
static bool nprt_pcie_head_first(const nprt_pcie *pc, uint32_t slot) {
  const nprt_pcie_queue *q = &pc->rxq[slot];
  uint64_t seq = q->at[q->head].seq;
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s) {
    const nprt_pcie_queue *o = &pc->rxq[s];
    if (s != slot && o->head != o->n && o->at[o->head].seq < seq)
      return false;
  }
  return true;
}

/* Whether a SYNC may bring more: something was sent or closed since the
 * last, or the FPGA's own inputs have packets left; and the host took
 * everything the FPGA sent, as one core runs a packet's whole path before
 * the next enters (npsmith, seed 111527). */
static bool nprt_pcie_may_sync(const nprt_pcie *pc) {
  if (!pc->pending && !pc->more)
    return false;
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s)
    if (!nprt_pcie_queue_empty(&pc->rxq[s]))
      return false;
  return true;
}

/* A slot device's state. */
typedef struct nprt_pcie_slot_dev {
  nprt_pcie *link;
  uint32_t slot;
  /* What the host's clock moves to (nprt_pcie_rx_clock): the clock of the
   * packet returned last, or the FPGA's at its last SYNC when there was
   * none (INT64_MIN: none). */
  int64_t clock;
} nprt_pcie_slot_dev;

/* The simulation's exit status, waiting at most about a second. */
static void nprt_pcie_reap(nprt_pcie *pc, char *how, size_t n) {
  snprintf(how, n, "still running");
  if (pc->pid <= 0)
    return;
  for (int k = 0; k < 100; ++k) {
    int st = 0;
    pid_t r = waitpid(pc->pid, &st, WNOHANG);
    if (r == pc->pid) {
      pc->pid = 0;
      if (WIFEXITED(st))
        snprintf(how, n, "exited with status %d", WEXITSTATUS(st));
      else if (WIFSIGNALED(st))
        snprintf(how, n, "killed by signal %d", WTERMSIG(st));
      return;
    }
    if (r < 0)
      return;
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
}

static void nprt_pcie_fail(nprt_pcie *pc, const char *fmt, ...) {
  if (pc->failed)
    return;
  pc->failed = true;
  char msg[512], how[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  nprt_pcie_reap(pc, how, sizeof(how));
  const nprt_options *o = pc->host->opts;
  fprintf(o->err, "%s: error: --fpga %s: %s (the simulation %s)\n", o->prog,
          o->fpga, msg, how);
  pc->host->failed(pc->host->ctx, true);
}

static const nprt_device_ops nprt_pcie_slot_ops;

/* Frees the simulation's argv. */
static void nprt_pcie_free_argv(char **argv, uint32_t n) {
  for (uint32_t i = 0; argv && i < n; ++i)
    free(argv[i]);
  free(argv);
}

int nprt_pcie_start(nprt_devices *t, nprt_pcie **link) {
  const nprt_options *o = t->host.opts;
  *link = NULL;
  if (!o->n_slots) {
    if (o->fpga) {
      fprintf(o->err,
              "%s: error: --fpga: the program has no PCIe slot to an FPGA\n",
              o->prog);
      return -1;
    }
    return 0;
  }
  if (!o->fpga) {
    fprintf(o->err,
            "%s: error: the program exchanges packets with an FPGA over %u "
            "PCIe slot(s); give --fpga=CSIM (the C simulation npcc "
            "--target=hls built)\n",
            o->prog, o->n_slots);
    return -1;
  }
  nprt_pcie *pc = calloc(1, sizeof(*pc));
  if (pc)
    pc->devs = calloc(o->n_slots, sizeof(*pc->devs));
  if (!pc || !pc->devs) {
    free(pc);
    fprintf(o->err, "%s: error: out of memory\n", o->prog);
    return -1;
  }
  pc->host = &t->host;
  pc->fpga_clock = INT64_MIN;
  *link = pc;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
    fprintf(o->err, "%s: error: socketpair: %s\n", o->prog, strerror(errno));
    return -1;
  }
  /* The simulation's command line: the socket, then the files of the
   * devices only the FPGA uses (built before fork: the child only
   * executes). */
  uint32_t nargs = 3 + o->n_fpga_ins + o->n_fpga_outs;
  char **argv = calloc(nargs, sizeof(*argv));
  bool built = argv != NULL;
  for (uint32_t i = 0; built && i < o->n_fpga_ins + o->n_fpga_outs; ++i) {
    bool out = i >= o->n_fpga_ins;
    const nprt_dev_file *f =
        out ? &o->fpga_outs[i - o->n_fpga_ins] : &o->fpga_ins[i];
    size_t len = strlen(f->path) + 32;
    argv[2 + i] = malloc(len);
    built = argv[2 + i] != NULL;
    if (built)
      snprintf(argv[2 + i], len, "--%s=%u=%s", out ? "out" : "in", f->dev,
               f->path);
  }
  char fdArg[32];
  snprintf(fdArg, sizeof(fdArg), "--host-fd=%d", sv[1]);
  if (built) {
    argv[0] = strdup(o->fpga);
    argv[1] = strdup(fdArg);
    built = argv[0] && argv[1];
  }
  if (!built) {
    fprintf(o->err, "%s: error: out of memory\n", o->prog);
    nprt_pcie_free_argv(argv, nargs);
    close(sv[0]);
    close(sv[1]);
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(o->err, "%s: error: fork: %s\n", o->prog, strerror(errno));
    nprt_pcie_free_argv(argv, nargs);
    close(sv[0]);
    close(sv[1]);
    return -1;
  }
  if (pid == 0) {
    close(sv[0]);
    execv(o->fpga, argv);
    fprintf(stderr, "%s: error: --fpga %s: %s\n", o->prog, o->fpga,
            strerror(errno));
    _exit(127);
  }
  nprt_pcie_free_argv(argv, nargs);
  close(sv[1]);
  fcntl(sv[0], F_SETFD, FD_CLOEXEC);
  pc->fd = sv[0];
  pc->pid = pid;
  pc->more = o->n_fpga_ins > 0;
  /* The slots take their device numbers over from the pcap files. */
  for (uint32_t i = 0; i < o->n_slots; ++i) {
    pc->devs[i] = (nprt_pcie_slot_dev){pc, o->slots[i].slot, INT64_MIN};
    nprt_device *d = nprt_devices_bind(t, o->slots[i].dev, o->slots[i].output,
                                       &nprt_pcie_slot_ops, &pc->devs[i]);
    if (!d) {
      fprintf(o->err, "%s: error: out of memory\n", o->prog);
      return -1;
    }
    d->sender = o->slots[i].sender;
  }
  return 0;
}

/* Sends the batch of `slot` if it holds packets. */
static void nprt_pcie_flush(nprt_pcie *pc, uint32_t slot) {
  nprt_pcie_msg *m = pc->tx[slot];
  if (!m || !m->count)
    return;
  nprt_pcie_msg_seal(m);
  if (!pc->failed && nprt_pcie_send(pc->fd, m) != 0)
    nprt_pcie_fail(pc, "cannot send to slot %u: %s", slot, strerror(errno));
  nprt_pcie_msg_init(m, NPRT_PCIE_DATA, slot);
}

_Static_assert(NPRT_PCIE_ANNOS == NPRT_PKT_ANNOS,
               "a PCIe record carries every named annotation");

/* `p`'s record: its metadata, and the bytes of its headroom from the
 * first that is not 0 (a buffer's headroom reads as 0), which the
 * other side puts back in front of the frame. */
static nprt_pcie_rec nprt_pcie_pack(const nprt_pkt *p) {
  const nprt_pkt_buf *b = nprt_pkt_to_cbuf(p);
  nprt_pcie_rec r;
  r.len = p->len;
  /* An unchanged capture keeps its wire length, as a pcap output does. */
  r.wire_len =
      b->cap_len == p->len && b->wire_len > p->len ? b->wire_len : p->len;
  r.in_port = p->in_port;
  r.paint = p->paint;
  r.out_port = p->out_port;
  r.headroom = p->headroom;
  r.tailroom = p->tailroom;
  r.lead = nprt_pkt_lead(p);
  r.ts = p->ts;
  r.anno = p->anno;
  memcpy(r.annos, p->annos, sizeof r.annos);
  r.seq = 0;
  r.clock = INT64_MIN;
  return r;
}

/* A packet of `pool` from a record and its lead and frame bytes: its room
 * at most the sender's, so that the same pushes and puts succeed. */
static nprt_pkt *nprt_pcie_unpack(nprt_pool *pool, const nprt_pcie_rec *r,
                                  const uint8_t *data) {
  uint32_t extra =
      r->headroom > NPRT_PKT_HEADROOM ? r->headroom - NPRT_PKT_HEADROOM : 0;
  nprt_pkt *p = nprt_pool_alloc(pool, extra + r->len);
  if (!p)
    return NULL;
  memset(p->data, 0, extra);
  nprt_pkt_pull(p, extra);
  uint32_t lead = r->lead < p->headroom ? r->lead : p->headroom;
  memcpy(p->data - lead, data + (r->lead - lead), lead);
  nprt_pkt_wrote_front(p, lead);
  memcpy(p->data, data + r->lead, r->len);
  if (r->headroom < p->headroom) {
    /* The buffer's first bytes are out of reach: so are that many of the
     * fresh ones. */
    uint32_t cut = p->headroom - r->headroom;
    p->fresh = p->fresh > cut ? p->fresh - cut : 0;
    p->headroom = r->headroom;
  }
  if (r->tailroom < p->tailroom)
    p->tailroom = r->tailroom;
  p->in_port = r->in_port;
  p->paint = r->paint;
  p->out_port = r->out_port;
  p->ts = r->ts;
  p->anno = r->anno;
  memcpy(p->annos, r->annos, sizeof p->annos);
  p->annos_set = (1u << NPRT_PKT_ANNOS) - 1u;
  return p;
}

/* Queues the packets of a DATA message; false if it is not for a slot the
 * host receives from. */
static bool nprt_pcie_take(nprt_pcie *pc, const nprt_pcie_msg *m) {
  const nprt_options *o = pc->host->opts;
  bool known = false;
  for (uint32_t i = 0; i < o->n_slots; ++i)
    known |= o->slots[i].slot == m->slot && !o->slots[i].output;
  if (!known) {
    nprt_pcie_fail(pc,
                   "the FPGA sent %u packet(s) on slot %u, which the "
                   "host does not receive from",
                   m->count, m->slot);
    return false;
  }
  size_t off = NPRT_PCIE_HDR;
  for (uint32_t k = 0; k < m->count; ++k) {
    nprt_pcie_rec r;
    const uint8_t *data;
    nprt_pcie_msg_at(m, &off, &r, &data);
    nprt_pkt *p = nprt_pcie_unpack(pc->host->pool, &r, data);
    if (!p) {
      nprt_pcie_fail(pc, "out of memory for a packet of slot %u", m->slot);
      return false;
    }
    nprt_pkt_buf *b = nprt_pkt_to_buf(p);
    b->cap_len = r.len;
    b->wire_len = r.wire_len;
    if (!nprt_pcie_queue_push(&pc->rxq[m->slot], p, r.seq, r.clock)) {
      nprt_pool_free(pc->host->pool, p);
      nprt_pcie_fail(pc, "out of memory for a packet of slot %u", m->slot);
      return false;
    }
  }
  return true;
}

/* The FPGA's next message into pc->in; false (reported, `closed` if the
 * FPGA closed the channel) when there is none. */
static bool nprt_pcie_next(nprt_pcie *pc, const char *closed) {
  char err[256];
  int r = nprt_pcie_recv(pc->fd, &pc->in, err, sizeof(err));
  if (r > 0)
    nprt_pcie_fail(pc, "%s", closed);
  else if (r < 0)
    nprt_pcie_fail(pc, "%s", err);
  return r == 0;
}

/* Every batch out, then SYNC; queues the answer up to the FPGA's SYNC. */
static void nprt_pcie_sync(nprt_pcie *pc) {
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s)
    nprt_pcie_flush(pc, s);
  pc->pending = false;
  if (pc->failed)
    return;
  nprt_pcie_msg_init(&pc->in, NPRT_PCIE_SYNC, 0);
  pc->in.closed = pc->tx_closed;
  pc->in.clock = pc->host->clock(pc->host->ctx);
  nprt_pcie_msg_seal(&pc->in);
  if (nprt_pcie_send(pc->fd, &pc->in) != 0) {
    nprt_pcie_fail(pc, "cannot send: %s", strerror(errno));
    return;
  }
  while (nprt_pcie_next(pc, "the FPGA closed the PCIe channel")) {
    if (pc->in.kind == NPRT_PCIE_SYNC) {
      pc->more = pc->in.slot != 0;
      pc->rx_closed = pc->in.closed;
      pc->tick |= pc->in.clock != pc->fpga_clock;
      pc->fpga_clock = pc->in.clock;
      return;
    }
    if (pc->in.kind != NPRT_PCIE_DATA) {
      nprt_pcie_fail(pc, "unexpected END from the FPGA");
      return;
    }
    if (!nprt_pcie_take(pc, &pc->in))
      return;
  }
}

/* Batches the packets for the slot; a frame no message can carry, or one
 * sent once the link failed, is refused. */
static uint32_t nprt_pcie_tx(nprt_device *d, nprt_pkt **pkts, uint32_t n) {
  nprt_pcie_slot_dev *sd = d->impl;
  nprt_pcie *pc = sd->link;
  uint32_t slot = sd->slot, sent = 0;
  for (uint32_t i = 0; i < n; ++i) {
    nprt_pkt *p = pkts[i];
    if (!pc->tx[slot] && !pc->failed && slot < NPRT_PCIE_SLOTS) {
      pc->tx[slot] = malloc(sizeof(nprt_pcie_msg));
      if (pc->tx[slot])
        nprt_pcie_msg_init(pc->tx[slot], NPRT_PCIE_DATA, slot);
      else
        nprt_pcie_fail(pc, "out of memory");
    }
    nprt_pcie_rec r = nprt_pcie_pack(p);
    if (pc->failed || slot >= NPRT_PCIE_SLOTS ||
        !nprt_pcie_msg_packet_ok(r.lead + r.len)) {
      nprt_pool_free(pc->host->pool, p);
      continue;
    }
    if (!nprt_pcie_msg_fits(pc->tx[slot], r.lead + r.len))
      nprt_pcie_flush(pc, slot);
    r.seq = pc->seq++;
    r.clock = pc->host->clock(pc->host->ctx);
    nprt_pcie_msg_add(pc->tx[slot], &r, p->data - r.lead);
    pc->pending = true;
    nprt_pool_free(pc->host->pool, p);
    ++sent;
  }
  return sent;
}

/* What the FPGA answered on the slot; the end once the FPGA's sender of
 * the slot ended and everything it sent was taken; NPRT_DEV_AGAIN while
 * the FPGA is idle, its sender did not end and only what the graph sends
 * it can make more come (nprt_pcie_rx_ready). */
static nprt_dev_status nprt_pcie_rx(nprt_device *d, nprt_pkt **pkts,
                                    uint32_t max, uint32_t *n) {
  nprt_pcie_slot_dev *sd = d->impl;
  nprt_pcie *pc = sd->link;
  uint32_t slot = sd->slot;
  *n = 0;
  if (pc->host->interrupted(pc->host->ctx) || slot >= NPRT_PCIE_SLOTS)
    return NPRT_DEV_END;
  for (;;) {
    nprt_pcie_queue *q = &pc->rxq[slot];
    while (*n < max && !nprt_pcie_queue_empty(q) &&
           nprt_pcie_head_first(pc, slot)) {
      nprt_pcie_answer a = q->at[q->head++];
      sd->clock = a.clock;
      pkts[(*n)++] = a.pkt;
    }
    if (*n)
      return NPRT_DEV_OK;
    /* An earlier packet waits on another slot: its receiver goes first. */
    if (!nprt_pcie_queue_empty(q)) {
      sd->clock = INT64_MIN;
      return NPRT_DEV_AGAIN;
    }
    if (pc->failed || (pc->rx_closed >> slot & 1u))
      return NPRT_DEV_END;
    /* Each SYNC's clock moves the host's, as each packet the FPGA read
     * moved one core's (npsmith, seed 113891). */
    if (pc->tick) {
      pc->tick = false;
      sd->clock = pc->fpga_clock;
      return NPRT_DEV_AGAIN;
    }
    if (!nprt_pcie_may_sync(pc)) {
      sd->clock = INT64_MIN;
      return NPRT_DEV_AGAIN;
    }
    nprt_pcie_sync(pc);
  }
}

/* The FPGA's clock when it sent the packet the slot returned last, or at
 * its last SYNC when the slot returned none: the host's clock moves to
 * it, as on one core the clock had moved to the time of the last packet
 * read from a device, which the host may never see (npsmith, seed
 * 113891). INT64_MIN: the FPGA read none yet. */
static int64_t nprt_pcie_rx_clock(const nprt_device *d) {
  const nprt_pcie_slot_dev *sd = d->impl;
  return sd->clock;
}

/* Whether the slot's receiver may find more: a packet queued that no
 * earlier one on another slot waits for, the end, or a SYNC that can
 * change what the FPGA has (something sent or closed since the last, or
 * the FPGA's own inputs not done). */
static bool nprt_pcie_rx_ready(const nprt_device *d) {
  const nprt_pcie_slot_dev *sd = d->impl;
  const nprt_pcie *pc = sd->link;
  uint32_t slot = sd->slot;
  if (slot >= NPRT_PCIE_SLOTS || pc->host->interrupted(pc->host->ctx))
    return true;
  if (!nprt_pcie_queue_empty(&pc->rxq[slot]))
    return nprt_pcie_head_first(pc, slot);
  return pc->failed || (pc->rx_closed >> slot & 1u) || pc->tick ||
         nprt_pcie_may_sync(pc);
}

/* The host's sender of the slot ended: the next SYNC tells the FPGA. */
static void nprt_pcie_tx_end(nprt_device *d) {
  nprt_pcie_slot_dev *sd = d->impl;
  nprt_pcie *pc = sd->link;
  if (sd->slot >= NPRT_PCIE_SLOTS || (pc->tx_closed >> sd->slot & 1u))
    return;
  pc->tx_closed |= 1u << sd->slot;
  pc->pending = true;
}

/* The link's state belongs to the link (nprt_pcie_finish). The slots have
 * no statistics of their own (--stats lists the files): their traffic
 * shows in the counts of the instances that use them. */
static const nprt_device_ops nprt_pcie_slot_ops = {
    .kind = "pcie-slot",
    .reactive = true,
    .rx_burst = nprt_pcie_rx,
    .tx_burst = nprt_pcie_tx,
    .rx_ready = nprt_pcie_rx_ready,
    .rx_clock = nprt_pcie_rx_clock,
    .tx_end = nprt_pcie_tx_end,
};

int nprt_pcie_finish(nprt_pcie *pc) {
  if (!pc)
    return 0;
  const nprt_options *o = pc->host->opts;
  int rc = 0;
  /* Started no simulation (reported): nothing to exchange. */
  if (pc->pid <= 0)
    pc->failed = true;
  if (!pc->failed && pc->pending)
    nprt_pcie_sync(pc);
  /* Answers no receiver took (it ended first) are dropped, and said so. */
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s)
    pc->late += pc->rxq[s].n - pc->rxq[s].head;
  if (!pc->failed) {
    nprt_pcie_msg_init(&pc->in, NPRT_PCIE_END, 0);
    nprt_pcie_msg_seal(&pc->in);
    if (nprt_pcie_send(pc->fd, &pc->in) != 0)
      nprt_pcie_fail(pc, "cannot send END: %s", strerror(errno));
  }
  while (!pc->failed &&
         nprt_pcie_next(pc, "the FPGA closed the channel before its END")) {
    if (pc->in.kind == NPRT_PCIE_END)
      break;
    pc->late += pc->in.count;
  }
  if (pc->late)
    fprintf(o->err,
            "%s: warning: --fpga: %llu packet(s) arrived after the end and "
            "were dropped\n",
            o->prog, (unsigned long long)pc->late);
  if (pc->pid > 0 || pc->fd > 0)
    close(pc->fd);
  if (pc->pid > 0) {
    int st = 0;
    if (pc->failed)
      kill(pc->pid, SIGTERM);
    bool waited = waitpid(pc->pid, &st, 0) == pc->pid;
    if (waited && !pc->failed && WIFEXITED(st) && WEXITSTATUS(st) == 3)
      rc = 1;
    else if (waited && !pc->failed &&
             !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
      fprintf(o->err, "%s: error: --fpga %s: the simulation %s %d\n", o->prog,
              o->fpga,
              WIFEXITED(st) ? "exited with status" : "was killed by signal",
              WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
      rc = -1;
    }
  }
  if (pc->failed)
    rc = -1;
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s) {
    free(pc->tx[s]);
    const nprt_pcie_queue *q = &pc->rxq[s];
    for (uint32_t k = q->head; k < q->n; ++k)
      nprt_pool_free(pc->host->pool, q->at[k].pkt);
    free(q->at);
  }
  free(pc->devs);
  free(pc);
  return rc;
}
