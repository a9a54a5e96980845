/*===- pcie.c - PCIe-slot devices to the FPGA's C simulation ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * See pcie.h. All state lives in the executor (ex->pcie).
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/pcie.h"

#include "runtime/nprt/pcie_msg.h"
#include "runtime/nprt/pool.h"

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

struct nprt_pcie {
  int fd;
  pid_t pid;
  bool failed;  /* reported; what is sent later is dropped (counted) */
  bool pending; /* packets sent since the last SYNC */
  nprt_pcie_msg *tx[NPRT_PCIE_SLOTS];
  nprt_pkt *head[NPRT_PCIE_SLOTS], *tail[NPRT_PCIE_SLOTS];
  nprt_inst *rx[NPRT_PCIE_SLOTS]; /* instances receiving from the FPGA */
  uint32_t n_rx;
  nprt_pcie_msg in;
  uint64_t late; /* packets the FPGA sent after END (dropped) */
};

int nprt_pcie_slot(const nprt_exec *ex, uint32_t dev, bool output) {
  const nprt_options *o = ex->opts;
  for (uint32_t i = 0; i < o->n_slots; ++i)
    if (o->slots[i].dev == dev && o->slots[i].output == output)
      return (int)o->slots[i].slot;
  return -1;
}

/* The simulation's exit status, waiting at most about a second. */
static void nprt_pcie_reap(nprt_exec *ex, char *how, size_t n) {
  nprt_pcie *pc = ex->pcie;
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

static void nprt_pcie_fail(nprt_exec *ex, const char *fmt, ...) {
  nprt_pcie *pc = ex->pcie;
  if (pc->failed)
    return;
  pc->failed = true;
  char msg[512], how[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  nprt_pcie_reap(ex, how, sizeof(how));
  fprintf(ex->opts->err, "%s: error: --fpga %s: %s (the simulation %s)\n",
          ex->opts->prog, ex->opts->fpga, msg, how);
  ex->io_error = true;
  ex->stop = true;
}

int nprt_pcie_start(nprt_exec *ex) {
  const nprt_options *o = ex->opts;
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
  if (!pc) {
    fprintf(o->err, "%s: error: out of memory\n", o->prog);
    return -1;
  }
  ex->pcie = pc;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
    fprintf(o->err, "%s: error: socketpair: %s\n", o->prog, strerror(errno));
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(o->err, "%s: error: fork: %s\n", o->prog, strerror(errno));
    close(sv[0]);
    close(sv[1]);
    return -1;
  }
  if (pid == 0) {
    close(sv[0]);
    char arg[32];
    snprintf(arg, sizeof(arg), "--host-fd=%d", sv[1]);
    execl(o->fpga, o->fpga, arg, (char *)NULL);
    fprintf(stderr, "%s: error: --fpga %s: %s\n", o->prog, o->fpga,
            strerror(errno));
    _exit(127);
  }
  close(sv[1]);
  fcntl(sv[0], F_SETFD, FD_CLOEXEC);
  pc->fd = sv[0];
  pc->pid = pid;
  return 0;
}

/* Sends the batch of `slot` if it holds packets. */
static void nprt_pcie_flush(nprt_exec *ex, uint32_t slot) {
  nprt_pcie *pc = ex->pcie;
  nprt_pcie_msg *m = pc->tx[slot];
  if (!m || !m->count)
    return;
  nprt_pcie_msg_seal(m);
  if (!pc->failed && nprt_pcie_send(pc->fd, m) != 0)
    nprt_pcie_fail(ex, "cannot send to slot %u: %s", slot, strerror(errno));
  nprt_pcie_msg_init(m, NPRT_PCIE_DATA, slot);
}

/* Queues the packets of a DATA message; false if it is not for a slot the
 * host receives from. */
static bool nprt_pcie_take(nprt_exec *ex, const nprt_pcie_msg *m) {
  nprt_pcie *pc = ex->pcie;
  bool known = false;
  for (uint32_t i = 0; i < ex->opts->n_slots; ++i)
    known |= ex->opts->slots[i].slot == m->slot && !ex->opts->slots[i].output;
  if (!known) {
    nprt_pcie_fail(ex,
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
    nprt_pkt *p = nprt_pool_alloc(&ex->pool, r.len);
    if (!p) {
      nprt_pcie_fail(ex, "out of memory for a packet of slot %u", m->slot);
      return false;
    }
    memcpy(p->data, data, r.len);
    p->in_port = r.in_port;
    p->ts = r.ts;
    nprt_pkt_buf *b = nprt_pkt_to_buf(p);
    b->cap_len = r.len;
    b->wire_len = r.wire_len;
    p->next = NULL;
    if (pc->tail[m->slot])
      pc->tail[m->slot]->next = p;
    else
      pc->head[m->slot] = p;
    pc->tail[m->slot] = p;
  }
  return true;
}

/* Every batch out, then SYNC; queues the answer up to the FPGA's SYNC. */
static void nprt_pcie_sync(nprt_exec *ex) {
  nprt_pcie *pc = ex->pcie;
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s)
    nprt_pcie_flush(ex, s);
  pc->pending = false;
  if (pc->failed)
    return;
  nprt_pcie_msg_init(&pc->in, NPRT_PCIE_SYNC, 0);
  nprt_pcie_msg_seal(&pc->in);
  if (nprt_pcie_send(pc->fd, &pc->in) != 0) {
    nprt_pcie_fail(ex, "cannot send: %s", strerror(errno));
    return;
  }
  for (;;) {
    char err[256];
    int r = nprt_pcie_recv(pc->fd, &pc->in, err, sizeof(err));
    if (r > 0) {
      nprt_pcie_fail(ex, "the FPGA closed the PCIe channel");
      return;
    }
    if (r < 0) {
      nprt_pcie_fail(ex, "%s", err);
      return;
    }
    if (pc->in.kind == NPRT_PCIE_SYNC)
      return;
    if (pc->in.kind != NPRT_PCIE_DATA) {
      nprt_pcie_fail(ex, "unexpected END from the FPGA");
      return;
    }
    if (!nprt_pcie_take(ex, &pc->in))
      return;
  }
}

void nprt_pcie_device_send(nprt_inst *self, uint32_t slot, nprt_pkt *p) {
  nprt_exec *ex = self->ex;
  nprt_pcie *pc = ex->pcie;
  if (!pc || pc->failed || slot >= NPRT_PCIE_SLOTS ||
      !nprt_pcie_msg_packet_ok(p->len)) {
    /* No simulation to send to, or a frame no message can carry. */
    ++self->faults;
    ++self->drops;
    nprt_pool_free(&ex->pool, p);
    return;
  }
  if (!pc->tx[slot]) {
    pc->tx[slot] = malloc(sizeof(nprt_pcie_msg));
    if (!pc->tx[slot]) {
      nprt_pcie_fail(ex, "out of memory");
      ++self->faults;
      ++self->drops;
      nprt_pool_free(&ex->pool, p);
      return;
    }
    nprt_pcie_msg_init(pc->tx[slot], NPRT_PCIE_DATA, slot);
  }
  const nprt_pkt_buf *b = nprt_pkt_to_cbuf(p);
  nprt_pcie_rec r;
  r.len = p->len;
  /* An unchanged capture keeps its wire length, as a pcap output does. */
  r.wire_len =
      b->cap_len == p->len && b->wire_len > p->len ? b->wire_len : p->len;
  r.in_port = p->in_port;
  r.ts = p->ts;
  if (!nprt_pcie_msg_fits(pc->tx[slot], p->len))
    nprt_pcie_flush(ex, slot);
  nprt_pcie_msg_add(pc->tx[slot], &r, p->data);
  pc->pending = true;
  nprt_pool_free(&ex->pool, p);
  self->progress = true;
}

nprt_pkt *nprt_pcie_device_recv(nprt_inst *self, uint32_t slot) {
  nprt_exec *ex = self->ex;
  nprt_pcie *pc = ex->pcie;
  if (!pc || slot >= NPRT_PCIE_SLOTS)
    return NULL;
  bool known = false;
  for (uint32_t i = 0; i < pc->n_rx; ++i)
    known |= pc->rx[i] == self;
  if (!known && pc->n_rx < NPRT_PCIE_SLOTS)
    pc->rx[pc->n_rx++] = self;
  for (;;) {
    nprt_pkt *p = pc->head[slot];
    if (p) {
      pc->head[slot] = p->next;
      if (!p->next)
        pc->tail[slot] = NULL;
      p->next = NULL;
      return p;
    }
    if (pc->failed)
      return NULL;
    if (pc->pending) {
      nprt_pcie_sync(ex);
      continue;
    }
    /* The FPGA is idle and has answered everything: more can only come
     * if some other instance still moves. */
    if (nprt_exec_idle_but(ex, pc->rx, pc->n_rx))
      return NULL;
    nprt_exec_yield(self);
  }
}

int nprt_pcie_finish(nprt_exec *ex) {
  nprt_pcie *pc = ex->pcie;
  if (!pc)
    return 0;
  ex->pcie = NULL;
  int rc = 0;
  /* Started no simulation (reported): nothing to exchange. */
  if (pc->pid <= 0)
    pc->failed = true;
  /* The executor is gone: failures are still reported through it. */
  nprt_exec tmp = *ex;
  tmp.pcie = pc;
  if (!pc->failed && pc->pending)
    nprt_pcie_sync(&tmp);
  if (!pc->failed) {
    nprt_pcie_msg_init(&pc->in, NPRT_PCIE_END, 0);
    nprt_pcie_msg_seal(&pc->in);
    if (nprt_pcie_send(pc->fd, &pc->in) != 0)
      nprt_pcie_fail(&tmp, "cannot send END: %s", strerror(errno));
  }
  while (!pc->failed) {
    char err[256];
    int r = nprt_pcie_recv(pc->fd, &pc->in, err, sizeof(err));
    if (r > 0) {
      nprt_pcie_fail(&tmp, "the FPGA closed the channel before its END");
      break;
    }
    if (r < 0) {
      nprt_pcie_fail(&tmp, "%s", err);
      break;
    }
    if (pc->in.kind == NPRT_PCIE_END)
      break;
    pc->late += pc->in.count;
  }
  if (pc->late)
    fprintf(ex->opts->err,
            "%s: warning: --fpga: %llu packet(s) arrived after the end and "
            "were dropped\n",
            ex->opts->prog, (unsigned long long)pc->late);
  if (pc->pid > 0 || pc->fd > 0)
    close(pc->fd);
  if (pc->pid > 0) {
    int st = 0;
    if (pc->failed)
      kill(pc->pid, SIGTERM);
    if (waitpid(pc->pid, &st, 0) == pc->pid && !pc->failed &&
        !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
      fprintf(ex->opts->err, "%s: error: --fpga %s: the simulation %s %d\n",
              ex->opts->prog, ex->opts->fpga,
              WIFEXITED(st) ? "exited with status" : "was killed by signal",
              WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
      rc = -1;
    }
  }
  if (pc->failed)
    rc = -1;
  for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s) {
    free(pc->tx[s]);
    for (nprt_pkt *p = pc->head[s], *n; p; p = n) {
      n = p->next;
      nprt_pool_free(&ex->pool, p);
    }
  }
  free(pc);
  return rc;
}
