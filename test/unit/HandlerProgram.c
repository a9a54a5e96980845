/*===- HandlerProgram.c - a program with read and write handlers -*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Written as generated C is: state through nprt_state, handler values
 * through nprt_handler_result and nprt_handler_arg, constant tables.
 *
 *===----------------------------------------------------------------------===*/
#include "HandlerProgram.h"

static nprt_test_counter *counter(nprt_inst *self) {
  return (nprt_test_counter *)nprt_state(self);
}

static void source(nprt_inst *self) {
  nprt_send_pkt(self, 0, nprt_device_recv(self, 0));
}

static void sink(nprt_inst *self) {
  nprt_device_send(self, 0, nprt_recv_pkt(self, 0));
}

static void count(nprt_inst *self) {
  nprt_pkt *p = nprt_recv_pkt(self, 0);
  nprt_test_counter *s = counter(self);
  ++s->count;
  s->bytes += nprt_pkt_len(p);
  nprt_send_pkt(self, 0, p);
}

static void read_count(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->count);
}
static void read_bytes(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->bytes);
}
static void write_reset(nprt_inst *self) {
  counter(self)->count = 0;
  counter(self)->bytes = 0;
}
static void read_limit(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->limit);
}
static void write_limit(nprt_inst *self) {
  counter(self)->limit = (uint16_t)nprt_handler_arg(self, 0);
}
static void write_config(nprt_inst *self) {
  nprt_test_counter *s = counter(self);
  s->active = nprt_handler_arg(self, 0) != 0;
  s->offset = (int16_t)nprt_handler_arg(self, 1);
  s->mac = nprt_handler_arg(self, 2);
}
static void read_active(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->active);
}
/* As generated code does: the signed value widened to 64 bits. */
static void read_offset(nprt_inst *self) {
  nprt_handler_result(self, (uint64_t)(int64_t)counter(self)->offset);
}
static void read_mac(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->mac);
}
static void write_route(nprt_inst *self) {
  nprt_test_counter *s = counter(self);
  s->dst = nprt_handler_arg(self, 0);
  s->gw = (uint32_t)nprt_handler_arg(self, 1);
  s->port = (uint8_t)nprt_handler_arg(self, 2);
}
static void read_dst(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->dst);
}
static void read_gw(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->gw);
}
static void read_port(nprt_inst *self) {
  nprt_handler_result(self, counter(self)->port);
}

static const uint32_t limit_params[] = {NPRT_VAL_UINT | 16};
/* config ACTIVE [OFFSET] MAC */
static const uint32_t config_params[] = {
    NPRT_VAL_BOOL, NPRT_VAL_INT | 16 | NPRT_VAL_DEFAULT, NPRT_VAL_UINT | 48};
static const uint64_t config_defaults[] = {0, (uint64_t)-5, 0};
/* route DST [GW] PORT, Click's ADDR/MASK [GW] PORT */
static const uint32_t route_params[] = {
    NPRT_VAL_PREFIX, NPRT_VAL_UINT | 32 | NPRT_VAL_DEFAULT, NPRT_VAL_UINT | 8};
static const uint64_t route_defaults[] = {0, 0, 0};

/* name, write, fn, result, n_params, params, defaults */
static const nprt_handler_desc counter_handlers[] = {
    {"count", false, read_count, NPRT_VAL_UINT | 64, 0, 0, 0},
    {"byte_count", false, read_bytes, NPRT_VAL_UINT | 64, 0, 0, 0},
    {"reset", true, write_reset, 0, 0, 0, 0},
    {"limit", false, read_limit, NPRT_VAL_UINT | 16, 0, 0, 0},
    {"limit", true, write_limit, 0, 1, limit_params, 0},
    {"config", true, write_config, 0, 3, config_params, config_defaults},
    {"active", false, read_active, NPRT_VAL_BOOL, 0, 0, 0},
    {"offset", false, read_offset, NPRT_VAL_INT | 16, 0, 0, 0},
    {"mac", false, read_mac, NPRT_VAL_UINT | 48, 0, 0, 0},
    {"route", true, write_route, 0, 3, route_params, route_defaults},
    {"dst", false, read_dst, NPRT_VAL_PREFIX, 0, 0, 0},
    {"gw", false, read_gw, NPRT_VAL_UINT | 32, 0, 0, 0},
    {"port", false, read_port, NPRT_VAL_UINT | 8, 0, 0, 0},
};

static const nprt_test_counter counter_init = {.limit = 100};

#define COUNTER_HANDLERS                                                       \
  counter_handlers, sizeof(counter_handlers) / sizeof(*counter_handlers)

/* name, element, in, out, placement, init, handler, signal, timer,
 * timer_period, fini, state_size, state_init, handlers, n_handlers */
static const nprt_instance_desc instances[] = {
    {"src", "FromDevice", "", "o", "host", 0, source, 0, 0, 0, 0, 0, 0, 0, 0},
    {"c1", "Counter", "i", "o", "npu", 0, count, 0, 0, 0, 0,
     sizeof(nprt_test_counter), &counter_init, COUNTER_HANDLERS},
    {"c2", "Counter", "i", "o", "npu", 0, count, 0, 0, 0, 0,
     sizeof(nprt_test_counter), &counter_init, COUNTER_HANDLERS},
    {"sink", "ToDevice", "i", "", "host", 0, sink, 0, 0, 0, 0, 0, 0, 0, 0},
};

/* src, src_port, dst, dst_port, depth, lossy */
static const nprt_channel_desc channels[] = {
    {0, 0, 1, 0, 8, false}, {1, 0, 2, 0, 8, false}, {2, 0, 3, 0, 8, false}};

const nprt_program nprt_test_counter_program = {"Counters", instances, 4,
                                                channels, 3};
