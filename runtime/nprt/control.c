/*===- control.c - the control socket and its clients -------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Every client has an input queue (bytes not yet part of a complete line)
 * and an output queue (responses not yet sent). A wake-up reads what is
 * there, runs every complete command, and sends what the socket takes;
 * the rest waits for the next wake-up, so a slow client never holds up
 * the graph. A client that stops reading stops being read once 1 MiB of
 * responses waits for it; a line longer than 64 KiB closes the
 * connection. Responses go out with MSG_NOSIGNAL: a client that went
 * away is an EPIPE for that client, never a SIGPIPE for the program.
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/control.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(((struct sockaddr_un *)0)->sun_path) ==
                   NPRT_MAX_UNIX_PATH,
               "NPRT_MAX_UNIX_PATH is the size of sun_path");

#define NPRT_CONTROL_MAX_LINE (64u * 1024u)
#define NPRT_CONTROL_MAX_PENDING (1024u * 1024u)
#define NPRT_CONTROL_PERIOD_NS 1000000

typedef struct nprt_client {
  int fd;
  nprt_strbuf in, out;
  bool read_closed;  /* EOF, error, or QUIT: no more commands */
  bool write_closed; /* the peer is gone: drop the connection */
} nprt_client;

struct nprt_control {
  int listen_fd;
  char *unix_path; /* removed at close; NULL for TCP */
  nprt_client *clients;
  uint32_t n_clients, cap_clients;
  struct pollfd *pfds; /* listening socket + one per client */
  int64_t next_poll;   /* CLOCK_MONOTONIC ns of the next tick's poll */
  nprt_handler_ctx hc; /* nprt_control_serve's: its executor's graph */
};

static void nprt_socket_error(nprt_strbuf *err, const char *spec,
                              const char *what) {
  nprt_strbuf_printf(err, "--control %s: %s: %s", spec, what, strerror(errno));
}

nprt_control *nprt_control_open(const char *spec, nprt_strbuf *err) {
  nprt_control *c = calloc(1, sizeof(*c));
  if (!c) {
    nprt_strbuf_puts(err, "out of memory");
    return NULL;
  }
  c->listen_fd = -1;
  bool is_unix = strncmp(spec, "unix:", 5) == 0;
  int fd = socket(is_unix ? AF_UNIX : AF_INET,
                  SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    nprt_socket_error(err, spec, "cannot create a socket");
    free(c);
    return NULL;
  }
  int rc;
  if (is_unix) {
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    /* The option parser checked that the path fits. */
    strncpy(sa.sun_path, spec + 5, sizeof(sa.sun_path) - 1);
    rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
  } else {
    int one = 1;
    /* A port in TIME_WAIT from the previous run is free to reuse. */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)strtoul(spec, NULL, 10));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
  }
  if (rc != 0 || listen(fd, 16) != 0) {
    nprt_socket_error(err, spec, rc != 0 ? "cannot bind" : "cannot listen");
    close(fd);
    free(c);
    return NULL;
  }
  c->listen_fd = fd;
  if (is_unix) {
    c->unix_path = malloc(strlen(spec + 5) + 1);
    if (c->unix_path)
      strcpy(c->unix_path, spec + 5);
  }
  return c;
}

/* Sends what the socket takes now. */
static void nprt_client_flush(nprt_client *cl) {
  while (cl->out.len && !cl->write_closed) {
    ssize_t w =
        send(cl->fd, cl->out.data, cl->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0)
      nprt_strbuf_consume(&cl->out, (size_t)w);
    else if (w < 0 && errno == EINTR)
      continue;
    else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    else
      cl->write_closed = true;
  }
}

static void nprt_client_free(nprt_client *cl) {
  close(cl->fd);
  nprt_strbuf_free(&cl->in);
  nprt_strbuf_free(&cl->out);
}

void nprt_control_close(nprt_control *c) {
  if (!c)
    return;
  for (uint32_t i = 0; i < c->n_clients; ++i) {
    nprt_client_flush(&c->clients[i]);
    nprt_client_free(&c->clients[i]);
  }
  if (c->listen_fd >= 0)
    close(c->listen_fd);
  if (c->unix_path)
    unlink(c->unix_path);
  free(c->unix_path);
  free(c->clients);
  free(c->pfds);
  free(c);
}

static void nprt_accept(nprt_control *c) {
  for (;;) {
    int fd = accept4(c->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR)
        continue;
      return; /* EAGAIN, or a connection that went away meanwhile */
    }
    if (c->n_clients == c->cap_clients) {
      uint32_t cap = c->cap_clients ? 2 * c->cap_clients : 4;
      nprt_client *v = realloc(c->clients, cap * sizeof(*v));
      struct pollfd *p = v ? realloc(c->pfds, (cap + 1) * sizeof(*p)) : NULL;
      if (v)
        c->clients = v;
      if (p)
        c->pfds = p;
      if (!v || !p) {
        close(fd);
        return;
      }
      c->cap_clients = cap;
    }
    nprt_client *cl = &c->clients[c->n_clients++];
    memset(cl, 0, sizeof(*cl));
    cl->fd = fd;
    nprt_strbuf_puts(&cl->out, NPRT_CONTROL_GREETING);
  }
}

/* Reads what is there; EOF or an error ends the client's commands. */
static void nprt_client_read(nprt_client *cl) {
  char buf[4096];
  for (;;) {
    ssize_t r = recv(cl->fd, buf, sizeof(buf), MSG_DONTWAIT);
    if (r > 0) {
      nprt_strbuf_append(&cl->in, buf, (size_t)r);
      if (cl->in.len >= NPRT_CONTROL_MAX_LINE)
        return;
      continue;
    }
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
      cl->read_closed = true;
    return;
  }
}

/* Runs every complete line (and, after EOF, the unterminated rest). */
static void nprt_client_run(nprt_client *cl, nprt_handler_ctx *hc) {
  while (cl->in.len && !cl->write_closed &&
         cl->out.len < NPRT_CONTROL_MAX_PENDING) {
    const char *s = cl->in.data;
    size_t eol = 0;
    while (eol < cl->in.len && s[eol] != '\r' && s[eol] != '\n')
      ++eol;
    if (eol >= cl->in.len && !cl->read_closed) {
      if (cl->in.len >= NPRT_CONTROL_MAX_LINE) {
        nprt_strbuf_puts(&cl->out, "500 Line too long\r\n");
        nprt_strbuf_clear(&cl->in);
        cl->read_closed = true;
      }
      return;
    }
    size_t next = eol;
    if (next < cl->in.len)
      next += (s[next] == '\r' && next + 1 < cl->in.len && s[next + 1] == '\n')
                  ? 2
                  : 1;
    bool quit = false;
    nprt_control_command(hc, s, eol, &cl->out, &quit);
    nprt_strbuf_consume(&cl->in, next);
    if (quit) {
      cl->read_closed = true;
      nprt_strbuf_clear(&cl->in);
    }
  }
}

/* One poll() of every socket: `wait` blocks until something happens, a
 * stop signal arrives (ppoll unblocks those signals only while it
 * waits, so one that arrives just before cannot be missed) or `timeout`
 * (NULL: none) passes. */
static void nprt_control_service(nprt_control *c, nprt_handler_ctx *hc,
                                 bool wait, const struct timespec *timeout) {
  struct pollfd listen_pfd = {c->listen_fd, POLLIN, 0};
  struct pollfd *pfds = c->pfds ? c->pfds : &listen_pfd;
  pfds[0] = listen_pfd;
  for (uint32_t i = 0; i < c->n_clients; ++i) {
    nprt_client *cl = &c->clients[i];
    short events = 0;
    if (!cl->read_closed && cl->out.len < NPRT_CONTROL_MAX_PENDING)
      events |= POLLIN;
    if (cl->out.len)
      events |= POLLOUT;
    pfds[i + 1] = (struct pollfd){cl->fd, events, 0};
  }
  nfds_t n = c->n_clients + 1;
  int ready;
  if (wait) {
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, &old);
    ready = nprt_stop_signal ? 0 : ppoll(pfds, n, timeout, &old);
    sigprocmask(SIG_SETMASK, &old, NULL);
  } else {
    ready = poll(pfds, n, 0);
  }
  if (ready <= 0)
    return;
  uint32_t n_before = c->n_clients;
  if (pfds[0].revents & POLLIN)
    nprt_accept(c);
  /* The new clients' greetings go out at once. */
  for (uint32_t i = 0; i < c->n_clients; ++i) {
    nprt_client *cl = &c->clients[i];
    if (i < n_before && (c->pfds[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
      nprt_client_read(cl);
    /* Until the commands there are done, or the client must read first. */
    for (size_t before = SIZE_MAX; cl->in.len && cl->in.len != before;) {
      before = cl->in.len;
      nprt_client_run(cl, hc);
      nprt_client_flush(cl);
    }
    nprt_client_flush(cl);
  }
  /* Drop clients that are done: gone, or quit with everything sent. */
  uint32_t k = 0;
  for (uint32_t i = 0; i < c->n_clients; ++i) {
    nprt_client *cl = &c->clients[i];
    if (cl->write_closed || (cl->read_closed && !cl->out.len && !cl->in.len))
      nprt_client_free(cl);
    else
      c->clients[k++] = *cl;
  }
  c->n_clients = k;
}

void nprt_control_tick(nprt_control *c, nprt_handler_ctx *hc) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  if (now < c->next_poll)
    return;
  c->next_poll = now + NPRT_CONTROL_PERIOD_NS;
  nprt_control_service(c, hc, false, NULL);
}

void nprt_control_wait(nprt_control *c, nprt_handler_ctx *hc,
                       const struct timespec *timeout) {
  nprt_control_service(c, hc, true, timeout);
}

static void nprt_control_round(void *ctx) {
  nprt_control *c = ctx;
  nprt_control_tick(c, &c->hc);
}

static void nprt_control_idle(void *ctx, const struct timespec *timeout) {
  nprt_control *c = ctx;
  nprt_control_wait(c, &c->hc, timeout);
}

void nprt_control_serve(nprt_control *c, nprt_exec *ex) {
  nprt_handler_ctx_exec(&c->hc, ex);
  ex->hooks = (nprt_exec_hooks){
      .ctx = c, .round = nprt_control_round, .idle = nprt_control_idle};
}
