/*===- options.c - command line of a compiled npcc program ------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Device numbering: the N-th `--in FILE` (counting from 0) is input device
 * N; `--in N=FILE` names the device explicitly. The same holds for --out.
 * A value whose text before the first '=' is all digits is a numbered
 * device; write ./3=x.pcap for a file literally called "3=x.pcap".
 *
 *===----------------------------------------------------------------------===*/
#include "runtime/nprt/options.h"

#include "nprt/nprt.h"

#include "nprt/version.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void nprt_options_init(nprt_options *o, const char *prog, const char *program) {
  memset(o, 0, sizeof(*o));
  o->prog = prog;
  o->program = program;
  o->out = stdout;
  o->err = stderr;
}

void nprt_options_free(nprt_options *o) {
  for (uint32_t i = 0; i < o->n_signals; ++i)
    free(o->signals[i].inst);
  free(o->signals);
  free(o->handlers);
  free(o->sim_sets);
  o->sim_sets = NULL;
  o->n_sim_sets = 0;
  free(o->ins);
  free(o->outs);
  free(o->slots);
  free(o->fpga_ins);
  free(o->fpga_outs);
  o->fpga_ins = o->fpga_outs = NULL;
  o->n_fpga_ins = o->n_fpga_outs = 0;
  o->slots = NULL;
  o->n_slots = 0;
  free(o->defines);
  o->defines = NULL;
  o->n_defines = 0;
  o->signals = NULL;
  o->handlers = NULL;
  o->ins = o->outs = NULL;
  o->n_signals = o->n_handlers = o->n_ins = o->n_outs = 0;
}

void nprt_options_usage(const nprt_options *o, FILE *f) {
  fprintf(f,
          "usage: %s [options]\n"
          "Runs the npcc program '%s' on pcap files.\n"
          "\n"
          "options:\n"
          "  --in FILE | --in N=FILE    read input device N from pcap FILE\n"
          "  --out FILE | --out N=FILE  write output device N to pcap FILE\n"
          "  --signal INST=VALUE        call the signal handler of instance\n"
          "                             INST with VALUE after every init and\n"
          "                             before the first handler "
          "(repeatable)\n"
          "  --stats                    measure cycles per element (one\n"
          "                             activation in 61, exclusive of\n"
          "                             nested calls) and print a profile:\n"
          "                             packets, bytes, drops, cycles per\n"
          "                             packet and share per element, then\n"
          "                             core utilisation and channel\n"
          "                             occupancy\n"
          "  --stats-json FILE          write all counters as JSON to FILE\n"
          "                             (with the measured cycles)\n"
          "  -h, --handler ELEM.NAME    after the run, print the value of\n"
          "                             read handler NAME of instance ELEM\n"
          "                             (ELEM may be a glob pattern or an\n"
          "                             element; NAME alone: a global\n"
          "                             handler) (repeatable)\n"
          "  --control PORT | --control unix:PATH\n"
          "                             serve Click's ControlSocket protocol\n"
          "                             on TCP port PORT of 127.0.0.1 or on\n"
          "                             Unix socket PATH; the program then\n"
          "                             runs until 'WRITE stop', SIGINT or\n"
          "                             SIGTERM\n"
          "  --live                     run on the host's clock: now() and\n"
          "                             packet time stamps are the time of\n"
          "                             day, advancing as CLOCK_MONOTONIC\n"
          "                             does, and timers fire at real time\n"
          "                             (default: trace time, the time stamp\n"
          "                             of the last packet read, and virtual\n"
          "                             time from timer to timer)\n"
          "  --duration TIME            stop input (as 'WRITE stop' does)\n"
          "                             once the clock has run for TIME\n"
          "                             (500ms, 2s, 100us, 250ns; a bare\n"
          "                             number is seconds)\n"
          "  --cores N                  run on N worker threads (1-16;\n"
          "                             default: as compiled, else 1)\n"
          "  --mapping auto|rtc|pipeline\n"
          "                             how the graph maps onto the cores:\n"
          "                             every core runs it all on its share\n"
          "                             of the flows (rtc), or a stage each\n"
          "                             (pipeline); auto: the compiler's\n"
          "                             choice (npcc --explain-mapping)\n"
          "  --sim[=CONFIG]             run on npsim, the simulated network\n"
          "                             processor, configured by CONFIG (a\n"
          "                             file, or nfp-like, modular-npu,\n"
          "                             powernp-like; default nfp-like):\n"
          "                             --cores is then 1-64 (default: the\n"
          "                             configuration's); needs an executable\n"
          "                             built with npcc --sim\n"
          "  --contexts K               hardware contexts per simulated core\n"
          "                             (1-8; default: the configuration's)\n"
          "  --set TABLE.KEY=VALUE      change one key of the configuration\n"
          "                             (repeatable)\n"
          "  --sim-json FILE            write the simulator's report as JSON\n"
          "  --trace-json FILE          write which context ran what when, as\n"
          "                             a Chrome/Perfetto trace\n"
          "  --fpga CSIM                run CSIM, the C simulation of the\n"
          "                             program's FPGA part (npcc\n"
          "                             --target=hls), and exchange the\n"
          "                             packets of its PCIe slots with it\n"
          "  --quiet                    do not print the statistics table\n"
          "  --help                     print this help and exit\n"
          "  --version                  print the npcc and LLVM versions the\n"
          "                             program was built with and exit\n"
          "\n"
          "Devices are numbered from 0: the N-th --in (--out) is input\n"
          "(output) device N unless N= is given. An output file takes link\n"
          "type, snap length and time-stamp precision from input device N,\n"
          "else input 0. Packets sent to an output device without --out are\n"
          "counted and discarded; an input device without --in is empty.\n"
          "An output that is an input file is refused. SIGINT or SIGTERM\n"
          "stops reading input; what was read is processed and written.\n"
          "Exit status: 0 success, 1 error (also: an output that could not\n"
          "be written), 3 deadlock, 128+N stopped by signal N (130 SIGINT,\n"
          "143 SIGTERM).\n",
          o->prog, o->program ? o->program : "");
}

static nprt_parse_result nprt_opt_error(nprt_options *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(o->err, "%s: error: ", o->prog);
  vfprintf(o->err, fmt, ap);
  va_end(ap);
  fprintf(o->err, "\n%s: note: run '%s --help' for usage\n", o->prog, o->prog);
  return NPRT_PARSE_ERROR;
}

static nprt_parse_result nprt_add_dev(nprt_options *o, const char *flag,
                                      const char *value, nprt_dev_file **list,
                                      uint32_t *n) {
  uint32_t dev = *n;
  const char *path = value;
  const char *eq = strchr(value, '=');
  if (eq && eq != value &&
      strspn(value, "0123456789") == (size_t)(eq - value)) {
    unsigned long v = strtoul(value, NULL, 10);
    if (v >= NPRT_MAX_DEVICES)
      return nprt_opt_error(o, "device number in '%s' is too large", value);
    dev = (uint32_t)v;
    path = eq + 1;
  }
  if (!*path)
    return nprt_opt_error(o, "option '%s' needs a file name", flag);
  for (uint32_t i = 0; i < *n; ++i)
    if ((*list)[i].dev == dev)
      return nprt_opt_error(o, "%s device %u is given twice", flag, dev);
  if (dev >= NPRT_MAX_DEVICES)
    return nprt_opt_error(o, "too many devices at '%s'", value);
  nprt_dev_file *v = realloc(*list, (*n + 1) * sizeof(*v));
  if (!v)
    return nprt_opt_error(o, "out of memory at '%s'", value);
  v[*n].dev = dev;
  v[*n].path = path;
  v[*n].link_type = v[*n].snaplen = 0;
  *list = v;
  ++*n;
  return NPRT_PARSE_RUN;
}

/* NAME=VALUE, as the click driver takes it. */
static nprt_parse_result nprt_add_define(nprt_options *o, const char *arg) {
  const char *eq = strchr(arg, '=');
  size_t n = (size_t)(eq - arg);
  bool ident = n > 0 && !isdigit((unsigned char)arg[0]);
  for (size_t i = 0; i < n && ident; ++i)
    ident = isalnum((unsigned char)arg[i]) || arg[i] == '_';
  if (!ident)
    return nprt_opt_error(o,
                          "'%s': expected NAME=VALUE with NAME an "
                          "identifier",
                          arg);
  nprt_define *v = realloc(o->defines, (o->n_defines + 1) * sizeof(*v));
  if (!v)
    return nprt_opt_error(o, "out of memory at '%s'", arg);
  v[o->n_defines++] = (nprt_define){arg, n, eq + 1, false};
  o->defines = v;
  return NPRT_PARSE_RUN;
}

/* Moves the files of the devices in `devs` that the FPGA owns from `*list`
 * to `*fpga`. */
static bool nprt_move_fpga_files(const struct nprt_device_desc *devs,
                                 uint32_t n, bool output, nprt_dev_file **list,
                                 uint32_t *count, nprt_dev_file **fpga,
                                 uint32_t *n_fpga) {
  uint32_t kept = 0;
  for (uint32_t k = 0; k < *count; ++k) {
    bool owned = false;
    for (uint32_t i = 0; i < n && !owned; ++i)
      owned = devs[i].output == output && devs[i].dev == (*list)[k].dev &&
              devs[i].path && strcmp(devs[i].path, "fpga-device") == 0;
    if (!owned) {
      (*list)[kept++] = (*list)[k];
      continue;
    }
    nprt_dev_file *v = realloc(*fpga, (*n_fpga + 1) * sizeof(*v));
    if (!v)
      return false;
    v[(*n_fpga)++] = (*list)[k];
    *fpga = v;
  }
  *count = kept;
  return true;
}

nprt_parse_result nprt_options_add_program_devices(
    nprt_options *o, const struct nprt_device_desc *devs, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    const nprt_device_desc *d = &devs[i];
    const char *path = d->path;
    if (path && strcmp(path, "fpga-device") == 0)
      continue; /* the simulation's: moved below */
    if (path && strncmp(path, "pcie-slot:", 10) == 0) {
      char *end = NULL;
      unsigned long slot = strtoul(path + 10, &end, 10);
      if (!end || *end || end == path + 10 || slot >= 32)
        return nprt_opt_error(o, "device '%s': bad PCIe slot", path);
      nprt_slot_dev *v = realloc(o->slots, (o->n_slots + 1) * sizeof(*v));
      if (!v)
        return nprt_opt_error(o, "out of memory");
      v[o->n_slots++] =
          (nprt_slot_dev){d->dev, (uint32_t)slot, d->output, d->sender};
      o->slots = v;
      continue;
    }
    for (uint32_t k = 0; k < o->n_defines; ++k) {
      nprt_define *def = &o->defines[k];
      if (*d->define && strlen(d->define) == def->name_len &&
          strncmp(d->define, def->name, def->name_len) == 0) {
        path = def->value;
        def->used = true;
      }
    }
    nprt_dev_file **list = d->output ? &o->outs : &o->ins;
    uint32_t *count = d->output ? &o->n_outs : &o->n_ins;
    bool given = false;
    for (uint32_t k = 0; k < *count; ++k)
      if ((*list)[k].dev == d->dev) {
        given = true;
        if (d->output) {
          (*list)[k].link_type = d->link_type;
          (*list)[k].snaplen = d->snaplen;
        }
      }
    if (given || !path || !*path)
      continue;
    nprt_dev_file *v = realloc(*list, (*count + 1) * sizeof(*v));
    if (!v)
      return nprt_opt_error(o, "out of memory");
    v[*count] = (nprt_dev_file){d->dev, path, d->link_type, d->snaplen};
    *list = v;
    ++*count;
  }
  for (uint32_t k = 0; k < o->n_defines; ++k)
    if (!o->defines[k].used)
      return nprt_opt_error(o,
                            "'%.*s=...': the program names no file after "
                            "'$%.*s'",
                            (int)o->defines[k].name_len, o->defines[k].name,
                            (int)o->defines[k].name_len, o->defines[k].name);
  if (!nprt_move_fpga_files(devs, n, false, &o->ins, &o->n_ins, &o->fpga_ins,
                            &o->n_fpga_ins) ||
      !nprt_move_fpga_files(devs, n, true, &o->outs, &o->n_outs, &o->fpga_outs,
                            &o->n_fpga_outs))
    return nprt_opt_error(o, "out of memory");
  return NPRT_PARSE_RUN;
}

static nprt_parse_result nprt_add_handler(nprt_options *o, const char *value) {
  if (!*value)
    return nprt_opt_error(o, "option '-h' needs a handler name");
  const char **v = realloc(o->handlers, (o->n_handlers + 1) * sizeof(*v));
  if (!v)
    return nprt_opt_error(o, "out of memory at '%s'", value);
  v[o->n_handlers++] = value;
  o->handlers = v;
  return NPRT_PARSE_RUN;
}

/* An integer with an NPL duration unit (ns, us, ms, s), seconds without
 * one; more than 0 and at most ~292 years (int64_t nanoseconds). */
static nprt_parse_result nprt_set_duration(nprt_options *o, const char *value) {
  static const struct {
    const char *unit;
    int64_t ns;
  } units[] = {{"ns", 1},
               {"us", 1000},
               {"ms", 1000000},
               {"s", 1000000000},
               {"", 1000000000}};
  size_t digits = strspn(value, "0123456789");
  errno = 0;
  unsigned long long n = digits ? strtoull(value, NULL, 10) : 0;
  for (size_t k = 0; k < sizeof(units) / sizeof(*units) && digits; ++k) {
    if (strcmp(value + digits, units[k].unit) != 0)
      continue;
    if (errno || n == 0 || n > (unsigned long long)(INT64_MAX / units[k].ns))
      break;
    o->duration_ns = (int64_t)n * units[k].ns;
    return NPRT_PARSE_RUN;
  }
  return nprt_opt_error(o,
                        "--duration expects a positive time such as 500ms, "
                        "2s, 100us or 250ns, got '%s'",
                        value);
}

/* A count from 1 to `max` for `flag`. */
static nprt_parse_result nprt_set_count(nprt_options *o, const char *flag,
                                        const char *value, uint32_t max,
                                        uint32_t *out) {
  size_t digits = strspn(value, "0123456789");
  unsigned long n =
      digits && digits < 4 && !value[digits] ? strtoul(value, NULL, 10) : 0;
  if (n < 1 || n > max)
    return nprt_opt_error(o, "%s expects 1..%u, got '%s'", flag, max, value);
  *out = (uint32_t)n;
  return NPRT_PARSE_RUN;
}

static nprt_parse_result nprt_add_sim_set(nprt_options *o, const char *value) {
  const char *eq = strchr(value, '=');
  if (!eq || eq == value)
    return nprt_opt_error(o, "--set expects TABLE.KEY=VALUE, got '%s'", value);
  const char **v = realloc(o->sim_sets, (o->n_sim_sets + 1) * sizeof(*v));
  if (!v)
    return nprt_opt_error(o, "out of memory at '%s'", value);
  v[o->n_sim_sets++] = value;
  o->sim_sets = v;
  return NPRT_PARSE_RUN;
}

/* The options only npsim runs: after the others, since --sim may come
 * after --cores. */
static nprt_parse_result nprt_check_sim(nprt_options *o) {
  if (!o->sim) {
    const char *only = o->contexts     ? "--contexts"
                       : o->n_sim_sets ? "--set"
                       : o->sim_json   ? "--sim-json"
                       : o->trace_json ? "--trace-json"
                                       : NULL;
    if (only)
      return nprt_opt_error(o, "%s needs --sim", only);
    return NPRT_PARSE_RUN;
  }
#ifndef NPRT_SIM
  return nprt_opt_error(o, "--sim: this executable runs on the host's threads; "
                           "build it with 'npcc --sim' to run it on npsim");
#else
  if (o->control)
    return nprt_opt_error(o, "--control cannot be used with --sim");
  if (o->live)
    return nprt_opt_error(o, "--live cannot be used with --sim (simulated "
                             "time is the simulator's)");
  if (o->fpga)
    return nprt_opt_error(o, "--fpga cannot be used with --sim");
  return NPRT_PARSE_RUN;
#endif
}

static nprt_parse_result nprt_set_mapping(nprt_options *o, const char *value) {
  static const char *const names[] = {"auto", "rtc", "pipeline"};
  for (uint32_t k = 0; k < 3; ++k)
    if (strcmp(value, names[k]) == 0) {
      o->mapping = k;
      o->mapping_given = true;
      return NPRT_PARSE_RUN;
    }
  return nprt_opt_error(o, "--mapping expects auto, rtc or pipeline, got '%s'",
                        value);
}

/* PORT (1..65535, decimal) or unix:PATH; the socket opens in nprt_run. */
static nprt_parse_result nprt_set_control(nprt_options *o, const char *value) {
  if (o->control)
    return nprt_opt_error(o, "--control is given twice");
  if (strncmp(value, "unix:", 5) == 0) {
    size_t n = strlen(value + 5);
    if (n == 0)
      return nprt_opt_error(o, "--control unix: needs a socket path");
    if (n >= NPRT_MAX_UNIX_PATH)
      return nprt_opt_error(o,
                            "--control socket path '%s' is too long "
                            "(at most %u bytes)",
                            value + 5, NPRT_MAX_UNIX_PATH - 1);
  } else {
    unsigned long port = 0;
    size_t digits = strspn(value, "0123456789");
    if (digits > 0 && digits < 6 && !value[digits])
      port = strtoul(value, NULL, 10);
    if (port < 1 || port > 65535)
      return nprt_opt_error(o,
                            "--control expects a TCP port (1-65535) or "
                            "unix:PATH, got '%s'",
                            value);
  }
  o->control = value;
  return NPRT_PARSE_RUN;
}

static nprt_parse_result nprt_add_signal(nprt_options *o, const char *value) {
  const char *eq = strchr(value, '=');
  if (!eq || eq == value || !eq[1])
    return nprt_opt_error(o, "--signal expects INST=VALUE, got '%s'", value);
  errno = 0;
  char *end;
  uint64_t v = strtoull(eq + 1, &end, 0);
  if (errno || *end || eq[1] == '-')
    return nprt_opt_error(o, "bad signal value in '%s'", value);
  nprt_signal_req *s = realloc(o->signals, (o->n_signals + 1) * sizeof(*s));
  if (!s)
    return nprt_opt_error(o, "out of memory at '%s'", value);
  o->signals = s;
  size_t len = (size_t)(eq - value);
  char *name = malloc(len + 1);
  if (!name)
    return nprt_opt_error(o, "out of memory at '%s'", value);
  memcpy(name, value, len);
  name[len] = 0;
  s[o->n_signals].inst = name;
  s[o->n_signals].value = v;
  ++o->n_signals;
  return NPRT_PARSE_RUN;
}

nprt_parse_result nprt_options_parse(nprt_options *o, int argc, char **argv) {
  static const char *const with_value[] = {
      "--in",       "--out",      "--stats-json", "--signal",    "--handler",
      "--control",  "--duration", "--cores",      "--mapping",   "--fpga",
      "--contexts", "--set",      "--sim-json",   "--trace-json"};
  const char *cores_arg = NULL;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0) {
      nprt_options_usage(o, o->out);
      return NPRT_PARSE_HELP;
    }
    if (strcmp(arg, "--version") == 0) {
      fprintf(o->out,
              "%s (npcc) version " NPCC_VERSION_STRING
              "\n  built with LLVM " NPCC_LLVM_VERSION_STRING "\n",
              o->prog);
      return NPRT_PARSE_HELP;
    }
    if (strcmp(arg, "--quiet") == 0) {
      o->quiet = true;
      continue;
    }
    if (strcmp(arg, "--stats") == 0) {
      o->stats = true;
      continue;
    }
    if (strcmp(arg, "--live") == 0) {
      o->live = true;
      continue;
    }
    if (strcmp(arg, "--sim") == 0 || strncmp(arg, "--sim=", 6) == 0) {
      if (o->sim)
        return nprt_opt_error(o, "--sim is given twice");
      o->sim = arg[5] ? arg + 6 : "";
      if (arg[5] && !*o->sim)
        return nprt_opt_error(o, "option '--sim=' needs a configuration");
      continue;
    }
    const char *flag = NULL, *value = NULL;
    /* -h takes a handler as Click's driver does; --help is the help. */
    if (strcmp(arg, "-h") == 0) {
      if (i + 1 >= argc)
        return nprt_opt_error(o, "option '-h' needs a value");
      nprt_parse_result r = nprt_add_handler(o, argv[++i]);
      if (r != NPRT_PARSE_RUN)
        return r;
      continue;
    }
    for (size_t k = 0; k < sizeof(with_value) / sizeof(*with_value); ++k) {
      size_t n = strlen(with_value[k]);
      if (strncmp(arg, with_value[k], n) != 0)
        continue;
      if (arg[n] == '=') {
        flag = with_value[k];
        value = arg + n + 1;
      } else if (arg[n] == 0) {
        flag = with_value[k];
        if (i + 1 >= argc)
          return nprt_opt_error(o, "option '%s' needs a value", flag);
        value = argv[++i];
      }
    }
    if (!flag && arg[0] != '-' && strchr(arg, '=')) {
      nprt_parse_result r = nprt_add_define(o, arg);
      if (r != NPRT_PARSE_RUN)
        return r;
      continue;
    }
    if (!flag)
      return nprt_opt_error(o, "unknown option '%s'", arg);
    nprt_parse_result r = NPRT_PARSE_RUN;
    if (strcmp(flag, "--in") == 0)
      r = nprt_add_dev(o, flag, value, &o->ins, &o->n_ins);
    else if (strcmp(flag, "--out") == 0)
      r = nprt_add_dev(o, flag, value, &o->outs, &o->n_outs);
    else if (strcmp(flag, "--signal") == 0)
      r = nprt_add_signal(o, value);
    else if (strcmp(flag, "--handler") == 0)
      r = nprt_add_handler(o, value);
    else if (strcmp(flag, "--control") == 0)
      r = nprt_set_control(o, value);
    else if (strcmp(flag, "--duration") == 0)
      r = nprt_set_duration(o, value);
    else if (strcmp(flag, "--cores") == 0)
      cores_arg = value; /* its range depends on --sim */
    else if (strcmp(flag, "--contexts") == 0)
      r = nprt_set_count(o, flag, value, NPRT_SIM_MAX_CONTEXTS, &o->contexts);
    else if (strcmp(flag, "--set") == 0)
      r = nprt_add_sim_set(o, value);
    else if (strcmp(flag, "--sim-json") == 0 && *value)
      o->sim_json = value;
    else if (strcmp(flag, "--trace-json") == 0 && *value)
      o->trace_json = value;
    else if (strcmp(flag, "--mapping") == 0)
      r = nprt_set_mapping(o, value);
    else if (strcmp(flag, "--fpga") == 0) {
      if (!*value)
        return nprt_opt_error(o, "option '--fpga' needs a value");
      if (o->fpga)
        return nprt_opt_error(o, "--fpga is given twice");
      o->fpga = value;
    } else if (!*value)
      return nprt_opt_error(o, "option '%s' needs a value", flag);
    else
      o->stats_json = value;
    if (r != NPRT_PARSE_RUN)
      return r;
  }
  if (cores_arg) {
    nprt_parse_result r =
        nprt_set_count(o, "--cores", cores_arg,
                       o->sim ? NPRT_SIM_MAX_CORES : NPRT_MAX_CORES, &o->cores);
    if (r != NPRT_PARSE_RUN)
      return r;
  }
  return nprt_check_sim(o);
}
