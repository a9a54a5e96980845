//===- nphls_tb.cpp - C-simulation testbench of npcc HLS designs ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Host code only (never synthesised): reads and writes classic pcap files
// without libpcap, so the testbench builds wherever the vendor's csim does.
//
//===----------------------------------------------------------------------===//

#include "nphls/tb.h"
#include "nprt/pcie_msg.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

constexpr uint32_t kMagicMicro = 0xa1b2c3d4u, kMagicNano = 0xa1b23c4du;

uint32_t swap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

struct Record {
  int64_t ts;
  uint32_t wire_len;
  std::vector<uint8_t> bytes;
};

struct Input {
  uint32_t dev;
  std::string path;
  bool nano = false;
  uint32_t snaplen = 65535, linktype = 1;
  std::vector<Record> records;
  std::string error; // why reading stopped before the end of the file
};

struct Output {
  uint32_t dev;
  std::string path;
  uint32_t link_type, snaplen;
  FILE *f = nullptr;
  bool nano = false;
  int slot = -1; // --host-fd: a PCIe slot to the host, not a file
  // The write that failed (errno), reported at once; the packets the
  // device takes after it are counted, not written.
  int error = 0;
  uint64_t handed = 0;
};

/// An output could not be written: as the C target, ingress stops (no more
/// input enters) and the design drains.
bool outputFailed = false;

/// --host-fd: the socket to the host executable and the batch of each
/// slot the design sends to it.
/// A packet the host sent, held until its SYNC.
struct FromHost {
  uint32_t dev;
  nprt_pcie_rec rec;
  std::vector<uint8_t> bytes; // lead and frame
};

struct HostLink {
  int fd = -1;
  std::vector<nprt_pcie_msg *> batch;
  uint64_t seq = 0; // packets sent to the host so far
  std::vector<FromHost> held;
  // The clock as one core would read it: the time of the last packet read
  // from a device (INT64_MIN: none yet); what the FPGA sends the host
  // carries it.
  int64_t clock = INT64_MIN;
  // Per device stream, the clock each packet fed to it sets when it is
  // read: a packet of our own files the latest stamp so far (time does
  // not go back), a packet of the host the host's clock when it sent it.
  std::map<const nphls_pkt_stream *, std::deque<int64_t>> fed;
  int64_t latest = INT64_MIN; // of our own files' packets fed so far
};
HostLink host;

void deviceRead(const nphls_pkt_stream *dev) {
  auto it = host.fed.find(dev);
  if (it == host.fed.end() || it->second.empty())
    return;
  int64_t clock = it->second.front();
  it->second.pop_front();
  if (clock == INT64_MIN)
    return;
  host.clock = clock;
  nphls_csim_set_clock(clock);
}

const char *prog = "tb";

[[noreturn]] void fail(const std::string &msg) {
  fprintf(stderr, "%s: error: %s\n", prog, msg.c_str());
  exit(1);
}

/// The largest capture length libpcap accepts for a link type.
uint32_t maxCapLen(uint32_t linktype) {
  switch (linktype) {
  case 231: // DLT_DBUS
    return 128u * 1024 * 1024;
  case 279: // DLT_EBHSCR
    return 8u * 1024 * 1024;
  case 249: // DLT_USBPCAP
    return 1024u * 1024;
  default:
    return 262144u;
  }
}

/// Reads the records of `in.path` up to its end or to the first record
/// libpcap would not read (a file cut in mid-record): that one and the
/// rest are left out and the reason is kept in `in.error`, so the
/// simulation processes every whole record, as the C target's executable
/// and the interpreter do, and then fails (libpcap's messages).
void readPcap(Input &in) {
  FILE *f = fopen(in.path.c_str(), "rb");
  if (!f)
    fail(in.path + ": " + strerror(errno));
  uint32_t h[6];
  if (fread(h, 4, 6, f) != 6)
    fail(in.path + ": truncated pcap file header");
  bool swapped = false;
  if (h[0] == kMagicMicro || h[0] == kMagicNano) {
  } else if (swap32(h[0]) == kMagicMicro || swap32(h[0]) == kMagicNano) {
    swapped = true;
    for (uint32_t &w : h)
      w = swap32(w);
  } else {
    fail(in.path + ": not a pcap file (bad magic number)");
  }
  in.nano = h[0] == kMagicNano;
  in.snaplen = h[4];
  in.linktype = h[5];
  for (;;) {
    uint32_t r[4];
    size_t got = fread(r, 1, sizeof(r), f);
    if (got == 0)
      break;
    if (got != sizeof(r)) {
      in.error = "truncated dump file; tried to read " +
                 std::to_string(sizeof(r)) + " header bytes, only got " +
                 std::to_string(got);
      break;
    }
    if (swapped)
      for (uint32_t &w : r)
        w = swap32(w);
    uint32_t caplen = r[2];
    if (caplen > maxCapLen(in.linktype)) {
      in.error = "invalid packet capture length " + std::to_string(caplen) +
                 (caplen > in.snaplen
                      ? ", bigger than snaplen of " + std::to_string(in.snaplen)
                      : ", bigger than maximum of " +
                            std::to_string(maxCapLen(in.linktype)));
      break;
    }
    // libpcap keeps the first snap-length bytes of a longer record.
    uint32_t keep = std::min(caplen, in.snaplen);
    Record rec;
    int64_t sec = swapped ? (int64_t)r[0] : (int64_t)(int32_t)r[0];
    int64_t frac = swapped ? (int64_t)r[1] : (int64_t)(int32_t)r[1];
    rec.ts = sec * 1000000000 + frac * (in.nano ? 1 : 1000);
    rec.wire_len = r[3];
    rec.bytes.resize(caplen);
    size_t read = caplen ? fread(rec.bytes.data(), 1, caplen, f) : 0;
    if (read != caplen) {
      uint32_t want =
          caplen > in.snaplen && read < in.snaplen ? in.snaplen : caplen;
      in.error = "truncated dump file; tried to read " + std::to_string(want) +
                 " captured bytes, only got " + std::to_string(read);
      break;
    }
    rec.bytes.resize(keep);
    if (keep > NPHLS_FRAME_BYTES)
      fail(in.path + ": record " + std::to_string(in.records.size() + 1) +
           " captures " + std::to_string(keep) + " bytes, more than " +
           std::to_string(NPHLS_FRAME_BYTES));
    in.records.push_back(std::move(rec));
  }
  fclose(f);
}

/// The link type pcap files store for a DLT number (DLT_RAW differs).
uint32_t fileLinkType(uint32_t dlt) {
  return dlt == 12 || dlt == 14 ? 101 : dlt;
}

void openOutput(Output &o, const std::vector<Input> &ins) {
  const Input *src = nullptr;
  for (const Input &in : ins)
    if (in.dev == o.dev)
      src = &in;
  if (!src && !ins.empty())
    src = &ins.front();
  uint32_t linktype = o.link_type ? o.link_type : src ? src->linktype : 1;
  uint32_t snaplen = o.snaplen ? o.snaplen : src ? src->snaplen : 65535;
  o.nano = src && src->nano;
  o.f = fopen(o.path.c_str(), "wb");
  if (!o.f)
    fail(o.path + ": " + strerror(errno));
  uint32_t h[6] = {o.nano ? kMagicNano : kMagicMicro,
                   0x00040002u,
                   0,
                   0,
                   snaplen,
                   fileLinkType(linktype)};
  if (fwrite(h, 4, 6, o.f) != 6)
    fail(o.path + ": " + strerror(errno));
}

void writeRecord(Output &o, const nphls_flit &first,
                 const std::vector<uint8_t> &frame) {
  int64_t ts = (int64_t)first.meta.ts;
  int64_t sec = ts / 1000000000, ns = ts % 1000000000;
  if (ns < 0) {
    ns += 1000000000;
    --sec;
  }
  uint32_t len = (uint32_t)frame.size();
  uint32_t cap_len = first.meta.cap_len, wire_len = first.meta.wire_len;
  uint32_t r[4];
  r[0] = (uint32_t)(uint64_t)sec;
  r[1] = (uint32_t)(o.nano ? ns : ns / 1000);
  r[2] = o.snaplen && len > o.snaplen ? o.snaplen : len;
  // An unchanged capture keeps its wire length (snap-length cut).
  r[3] = cap_len == len && wire_len > len ? wire_len : len;
  ++o.handed;
  if (o.error)
    return;
  errno = 0;
  if (fwrite(r, 4, 4, o.f) != 4 || fwrite(frame.data(), 1, r[2], o.f) != r[2]) {
    outputFailed = true;
    o.error = errno ? errno : EIO;
    fprintf(stderr, "%s: error: %s: cannot write: %s\n", prog, o.path.c_str(),
            strerror(o.error));
  }
}

/// After a failed write the file may end in part of a record: cuts it back
/// to its last whole one, so that it is a valid capture of the packets
/// before the failure (as the C target's pcap output). Returns the records
/// kept.
uint64_t trimToRecords(const Output &o) {
  FILE *f = fopen(o.path.c_str(), "rb");
  if (!f)
    return 0;
  long end = 0;
  uint64_t records = 0;
  uint32_t h[6];
  if (fread(h, 4, 6, f) == 6) {
    end = 24;
    uint32_t r[4];
    while (fseek(f, end, SEEK_SET) == 0 && fread(r, 4, 4, f) == 4 &&
           fseek(f, end + 16 + (long)r[2], SEEK_SET) == 0 &&
           ftell(f) == end + 16 + (long)r[2]) {
      // fseek may go past the end: a whole record has its last byte.
      if (r[2] && (fseek(f, -1, SEEK_CUR) != 0 || fgetc(f) == EOF))
        break;
      end += 16 + (long)r[2];
      ++records;
    }
  }
  fclose(f);
  if (truncate(o.path.c_str(), end) != 0)
    fprintf(stderr, "%s: error: %s: cannot cut back to whole records: %s\n",
            prog, o.path.c_str(), strerror(errno));
  return records;
}

void sendToHost(const nprt_pcie_msg *m) {
  if (nprt_pcie_send(host.fd, m) != 0)
    fail(std::string("cannot send to the host: ") + strerror(errno));
}

/// Sends the batch of `slot` if it holds packets.
void flushSlot(uint32_t slot) {
  nprt_pcie_msg *m = host.batch[slot];
  if (!m || !m->count)
    return;
  nprt_pcie_msg_seal(m);
  sendToHost(m);
  nprt_pcie_msg_init(m, NPRT_PCIE_DATA, slot);
}

void toHost(const Output &o, const nphls_flit &first,
            const std::vector<uint8_t> &bytes, uint32_t lead) {
  uint32_t slot = (uint32_t)o.slot, len = (uint32_t)bytes.size() - lead;
  nprt_pcie_msg *&m = host.batch[slot];
  if (!m) {
    m = new nprt_pcie_msg;
    nprt_pcie_msg_init(m, NPRT_PCIE_DATA, slot);
  }
  const nphls_meta &meta = first.meta;
  uint32_t cap_len = meta.cap_len, wire_len = meta.wire_len;
  nprt_pcie_rec r;
  r.len = len;
  r.wire_len = cap_len == len && wire_len > len ? wire_len : len;
  r.in_port = meta.in_port;
  r.paint = meta.paint;
  r.out_port = meta.out_port;
  r.headroom = meta.headroom;
  r.tailroom = meta.tailroom;
  r.lead = lead;
  r.ts = (int64_t)meta.ts;
  r.anno = meta.anno;
  for (uint32_t a = 0; a < NPRT_PCIE_ANNOS; ++a)
    r.annos[a] = meta.annos[a];
  r.seq = host.seq++;
  r.clock = host.clock;
  if (!nprt_pcie_msg_packet_ok(lead + len))
    fail("slot " + std::to_string(slot) + ": a packet of " +
         std::to_string(lead + len) + " bytes does not fit a 64 KB message");
  if (!nprt_pcie_msg_fits(m, lead + len))
    flushSlot(slot);
  nprt_pcie_msg_add(m, &r, bytes.data());
}

/// Moves every whole packet waiting on output device streams to its file.
void drain(nphls_pkt_stream *devOut, uint32_t n, std::vector<Output> &outs,
           std::vector<uint64_t> &lost) {
  for (uint32_t d = 0; d < n; ++d) {
    while (!devOut[d].empty()) {
      nphls_flit first = devOut[d].read(), x = first;
      std::vector<uint8_t> frame;
      for (;;) {
        uint8_t bytes[NPHLS_FLIT_BYTES];
        nphls_flit_get_bytes(x, bytes);
        frame.insert(frame.end(), bytes, bytes + (uint32_t)x.bytes);
        if (x.eop)
          break;
        x = devOut[d].read();
      }
      uint32_t lead = (uint32_t)first.meta.lead;
      lead = (uint32_t)std::min<size_t>(lead, frame.size());
      frame.resize(
          std::min<size_t>(frame.size(), lead + (uint32_t)first.meta.len));
      Output *o = nullptr;
      for (Output &out : outs)
        if (out.dev == d)
          o = &out;
      // The host takes the lead too (pcie_msg.h); a file only the frame.
      if (o && o->slot >= 0) {
        toHost(*o, first, frame, lead);
        continue;
      }
      frame.erase(frame.begin(), frame.begin() + lead);
      if (o)
        writeRecord(*o, first, frame);
      else
        ++lost[d];
    }
  }
}

/// A read handler's value as the C target prints it (NPRT_VAL_* kinds).
std::string formatValue(uint32_t kind, uint64_t v) {
  uint32_t w = kind & NPRT_VAL_WIDTH_MASK;
  uint64_t mask = w == 0 || w >= 64 ? ~0ull : (1ull << w) - 1;
  char buf[64];
  switch (kind & NPRT_VAL_KIND_MASK) {
  case NPRT_VAL_INT: {
    uint64_t bits = v & mask;
    if (w && w < 64 && ((bits >> (w - 1)) & 1u))
      bits |= ~mask;
    snprintf(buf, sizeof(buf), "%lld", (long long)(int64_t)bits);
    break;
  }
  case NPRT_VAL_BOOL:
    return v ? "true" : "false";
  case NPRT_VAL_PREFIX:
    snprintf(buf, sizeof(buf), "%u.%u.%u.%u/%u", (unsigned)(v >> 24) & 255u,
             (unsigned)(v >> 16) & 255u, (unsigned)(v >> 8) & 255u,
             (unsigned)v & 255u, (unsigned)(v >> 32));
    break;
  default:
    snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(v & mask));
    break;
  }
  return buf;
}

/// `b` holding a packet as libnprt reads one from a device: its room, in
/// port, time stamp and capture lengths.
void deviceBuf(nphls_buf &b, const uint8_t *data, uint32_t len, uint32_t inPort,
               int64_t ts, uint32_t wireLen) {
  b.pkt = nprt_pkt();
  std::fill(b.bytes, b.bytes + NPRT_PKT_HEADROOM, 0); // see nphls_write_flits
  b.pkt.headroom = NPRT_PKT_HEADROOM;
  b.pkt.data = b.bytes + NPRT_PKT_HEADROOM;
  b.pkt.len = len;
  b.pkt.tailroom =
      len <= NPHLS_POOL_FRAME_BYTES ? NPHLS_POOL_FRAME_BYTES - len : 0;
  std::copy(data, data + len, b.pkt.data);
  b.pkt.in_port = inPort;
  b.pkt.ts = ts;
  b.cap_len = len;
  b.wire_len = wireLen;
}

/// `b` holding a packet the host sent (pcie_msg.h): its annotations, and
/// its room and lead as far as one buffer holds them.
void hostBuf(nphls_buf &b, const nprt_pcie_rec &r, const uint8_t *bytes) {
  b.pkt = nprt_pkt();
  uint32_t head = NPRT_PKT_HEADROOM;
  uint32_t tail =
      r.len <= NPHLS_POOL_FRAME_BYTES ? NPHLS_POOL_FRAME_BYTES - r.len : 0;
  if ((uint64_t)r.headroom + r.len + r.tailroom <= sizeof(b.bytes)) {
    head = r.headroom;
    tail = r.tailroom;
  }
  std::fill(b.bytes, b.bytes + std::max(head, NPRT_PKT_HEADROOM), 0);
  b.pkt.data = b.bytes + head;
  b.pkt.len = r.len;
  b.pkt.headroom = head;
  b.pkt.tailroom = tail;
  uint32_t lead = std::min(r.lead, head);
  std::copy(bytes + r.lead - lead, bytes + r.lead + r.len, b.pkt.data - lead);
  b.pkt.in_port = r.in_port;
  b.pkt.paint = r.paint;
  b.pkt.out_port = r.out_port;
  b.pkt.ts = r.ts;
  b.pkt.anno = r.anno;
  for (uint32_t a = 0; a < NPRT_PKT_ANNOS && a < NPRT_PCIE_ANNOS; ++a)
    b.pkt.annos[a] = r.annos[a];
  b.cap_len = r.len;
  b.wire_len = r.wire_len;
}

void usage(const nphls_tb_design *d) {
  printf("usage: %s [--in [N=]FILE] [--out [N=]FILE] [-h INSTANCE.HANDLER] "
         "[--stats] [NAME=FILE]\n\n"
         "C simulation of the HLS design '%s': reads the input pcaps, hands "
         "the design\none packet at a time, runs it until it is idle and "
         "writes the output devices'\npackets as pcaps.\n"
         "  --in [N=]FILE      input device N (default 0) reads FILE\n"
         "  --out [N=]FILE     output device N (default 0) writes FILE\n"
         "  -h INST.HANDLER    print a read handler's value after the run\n"
         "  --signal INST=V    call INST's signal handler with V after init\n"
         "  --stats            print per-instance counts after the run\n"
         "  --quiet            accepted, as by the C target's executables\n"
         "  NAME=FILE          a file the program names by NAME\n",
         prog, d->name);
}

/// `N=FILE`, or `FILE` for the next device (as the C target's
/// executable: the k-th `--out FILE` is device k), added to `list`.
void addDevice(const std::string &flag, const std::string &a,
               std::vector<std::pair<uint32_t, std::string>> &list) {
  uint32_t dev = (uint32_t)list.size();
  std::string path = a;
  size_t eq = a.find('=');
  if (eq != std::string::npos && eq > 0 && eq <= 6 &&
      std::all_of(a.begin(), a.begin() + eq, ::isdigit)) {
    dev = (uint32_t)std::stoul(a.substr(0, eq));
    path = a.substr(eq + 1);
  }
  if (path.empty())
    fail("option '" + flag + "' needs a file name");
  for (const auto &d : list)
    if (d.first == dev)
      fail(flag + " device " + std::to_string(dev) + " is given twice");
  list.push_back({dev, path});
}

} // namespace

int nphls_tb_main(int argc, char **argv, const nphls_tb_design *d) {
  prog = argc > 0 ? argv[0] : "tb";
  // A file that reaches its size limit fails its write (EFBIG), reported
  // as any other, instead of killing the simulation.
  signal(SIGXFSZ, SIG_IGN);
  nphls_csim_on_device_read(deviceRead);
  std::vector<std::pair<uint32_t, std::string>> inArgs, outArgs;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::string> reads, signals;
  bool stats = false;
  for (int k = 1; k < argc; ++k) {
    if (strncmp(argv[k], "--host-fd=", 10) == 0) {
      host.fd = atoi(argv[k] + 10);
      continue;
    }
    std::string a = argv[k];
    auto value = [&]() -> std::string {
      size_t eq = a.find('=');
      if (a.rfind("--", 0) == 0 && eq != std::string::npos)
        return a.substr(eq + 1);
      if (k + 1 >= argc)
        fail("option '" + a + "' needs a value");
      return argv[++k];
    };
    std::string flag = a.substr(0, a.find('='));
    if (a == "--help" || a == "-help") {
      usage(d);
      return 0;
    } else if (flag == "--in") {
      addDevice(flag, value(), inArgs);
    } else if (flag == "--out") {
      addDevice(flag, value(), outArgs);
    } else if (a == "--quiet") {
      // The testbench prints nothing but what it is asked for.
    } else if (a == "-h" || flag == "--handler") {
      reads.push_back(value());
    } else if (flag == "--signal") {
      signals.push_back(value());
    } else if (a == "--stats") {
      stats = true;
    } else if (a[0] != '-' && a.find('=') != std::string::npos) {
      defines.push_back({a.substr(0, a.find('=')), a.substr(a.find('=') + 1)});
    } else {
      fail("unknown argument '" + a + "' (see --help)");
    }
  }
  // An output device without a file discards what it is sent (counted),
  // as the C target's executables do; an input device needs one.
  auto slotOf = [](const nphls_tb_device &dev) -> int {
    if (!dev.path || strncmp(dev.path, "pcie-slot:", 10) != 0)
      return -1;
    return atoi(dev.path + 10);
  };
  auto pathOf = [&](const nphls_tb_device &dev, bool output) -> std::string {
    for (const auto &a : output ? outArgs : inArgs)
      if (a.first == dev.dev)
        return a.second;
    for (const auto &def : defines)
      if (dev.define && *dev.define && def.first == dev.define)
        return def.second;
    if (dev.path)
      return dev.path;
    if (!output)
      fail("input device " + std::to_string(dev.dev) +
           " has no file; give --in " + std::to_string(dev.dev) + "=FILE");
    return "";
  };
  std::vector<Input> ins;
  // With --host-fd, the host's messages feed the PCIe-slot input devices.
  std::vector<int> slotDev(NPRT_PCIE_SLOTS, -1);
  for (uint32_t i = 0; i < d->n_ins; ++i) {
    int slot = slotOf(d->ins[i]);
    if (slot >= 0) {
      if (host.fd < 0)
        fail("input device " + std::to_string(d->ins[i].dev) +
             " is PCIe slot " + std::to_string(slot) +
             " of the host; the host executable runs this simulation "
             "(--fpga)");
      if (slot < (int)NPRT_PCIE_SLOTS)
        slotDev[slot] = (int)d->ins[i].dev;
      continue;
    }
    Input in;
    in.dev = d->ins[i].dev;
    in.path = pathOf(d->ins[i], false);
    readPcap(in);
    ins.push_back(std::move(in));
  }
  std::vector<Output> outs;
  for (uint32_t i = 0; i < d->n_outs; ++i) {
    Output o;
    o.dev = d->outs[i].dev;
    o.path = slotOf(d->outs[i]) >= 0 ? "" : pathOf(d->outs[i], true);
    o.link_type = d->outs[i].link_type;
    o.snaplen = d->outs[i].snaplen;
    o.slot = slotOf(d->outs[i]);
    if (o.slot >= 0) {
      if (host.fd < 0)
        fail("output device " + std::to_string(o.dev) + " is PCIe slot " +
             std::to_string(o.slot) +
             " of the host; the host executable runs this simulation "
             "(--fpga)");
      outs.push_back(o);
      continue;
    }
    if (o.path.empty())
      continue;
    openOutput(o, ins);
    outs.push_back(o);
  }
  std::vector<nphls_pkt_stream> devIn(std::max<uint32_t>(1, d->n_dev_in));
  std::vector<nphls_pkt_stream> devOut(std::max<uint32_t>(1, d->n_dev_out));
  std::vector<uint64_t> lost(devOut.size());
  auto settle = [&]() {
    // Every call runs each process at most once; the design is idle when
    // a call runs none.
    for (uint64_t calls = 0;; ++calls) {
      uint64_t before = nphls_csim_activity();
      d->step(devIn.data(), devOut.data());
      drain(devOut.data(), d->n_dev_out, outs, lost);
      if (nphls_csim_activity() == before)
        return;
      if (calls > 100000000)
        fail("the design does not become idle (a cycle of processes that "
             "never stops?)");
    }
  };
  // The inputs' packets one at a time, each run through the design before
  // the next enters (the C target's push processing), in turns of
  // kTurn packets per input device in the order of their sources, as the
  // C runtime's scheduler runs its source instances (NPRT_MAX_BATCH).
  const size_t kTurn = 64;
  settle();
  // As the C runtime: every instance ran init() (its process's first
  // call), then the --signal values in command-line order, then handlers.
  for (const std::string &sig : signals) {
    size_t eq = sig.find('=');
    std::string name = sig.substr(0, eq);
    nphls_csim_instance *inst =
        eq == std::string::npos ? nullptr : nphls_csim_find(name.c_str());
    if (!inst || !inst->signal)
      fail("--signal: " + (inst
                               ? "instance '" + name + "' has no signal handler"
                               : "no instance named '" + name + "'"));
    char *end = nullptr;
    const char *v = sig.c_str() + eq + 1;
    unsigned long long n = strtoull(v, &end, 0);
    if (!*v || *end)
      fail("--signal " + sig + ": bad value");
    inst->signal(inst->self, (int64_t)n);
    settle();
  }
  std::vector<size_t> next(ins.size(), 0);
  // One turn of every input device; false when none has records left.
  // The next packet of input i enters and runs through the design.
  auto feed = [&](uint32_t i) {
    const Record &rec = ins[i].records[next[i]++];
    host.latest = std::max(host.latest, rec.ts);
    nphls_buf b;
    deviceBuf(b, rec.bytes.data(), (uint32_t)rec.bytes.size(), ins[i].dev,
              rec.ts, rec.wire_len);
    if (ins[i].dev < devIn.size()) {
      host.fed[&devIn[ins[i].dev]].push_back(host.latest);
      nphls_write_flits(devIn[ins[i].dev], b);
    }
    settle();
  };
  auto left = [&]() {
    for (uint32_t i = 0; i < ins.size() && !outputFailed; ++i)
      if (next[i] < ins[i].records.size())
        return true;
    return false;
  };
  auto turn = [&]() {
    for (uint32_t i = 0; i < ins.size(); ++i) {
      // A run waiting on a full channel resumes after the turn.
      nphls_csim_allow_resume(false);
      for (size_t n = 0;
           n < kTurn && next[i] < ins[i].records.size() && !outputFailed; ++n)
        feed(i);
      nphls_csim_allow_resume(true);
      settle();
    }
    return left();
  };
  // Driven by the host, one packet of the inputs enters per SYNC, in the
  // same turns: what it sends the host comes back (at the next SYNC)
  // before the next enters, as one core runs each packet's whole path
  // first (npsmith, seed 111527). Returns whether packets are left.
  uint32_t cur = 0;
  size_t burst = 0;
  auto feedOne = [&]() {
    if (outputFailed)
      return false;
    uint32_t n = (uint32_t)ins.size();
    for (uint32_t k = 0; k < n && next[cur] >= ins[cur].records.size(); ++k)
      cur = (cur + 1) % n;
    if (next[cur] >= ins[cur].records.size())
      return false;
    if (burst == 0)
      nphls_csim_allow_resume(false);
    feed(cur);
    if (++burst == kTurn || next[cur] >= ins[cur].records.size()) {
      nphls_csim_allow_resume(true);
      settle();
      cur = (cur + 1) % n;
      burst = 0;
    }
    return left();
  };

  settle();
  bool deadlock = false;
  if (host.fd >= 0) {
    // Driven by the host: each packet of a DATA message enters alone and
    // the design runs until idle; SYNC sends what the slots produced and
    // answers SYNC; END does the same with END and ends the run.
    host.batch.assign(NPRT_PCIE_SLOTS, nullptr);
    nprt_pcie_msg *m = new nprt_pcie_msg;
    uint32_t hostClosed = 0; // slots whose host sender ended
    for (bool end = false; !end;) {
      char err[256];
      int r = nprt_pcie_recv(host.fd, m, err, sizeof(err));
      if (r > 0)
        fail("the host closed the PCIe channel without END");
      if (r < 0)
        fail(std::string("from the host: ") + err);
      if (m->kind == NPRT_PCIE_DATA) {
        int dev = slotDev[m->slot];
        if (dev < 0 || (uint32_t)dev >= devIn.size())
          fail("the host sent " + std::to_string(m->count) +
               " packet(s) on slot " + std::to_string(m->slot) +
               ", which the design does not receive from");
        size_t off = NPRT_PCIE_HDR;
        for (uint32_t k = 0; k < m->count; ++k) {
          nprt_pcie_rec rec;
          const uint8_t *data;
          nprt_pcie_msg_at(m, &off, &rec, &data);
          if (rec.len > NPHLS_FRAME_BYTES)
            fail("slot " + std::to_string(m->slot) + ": a packet of " +
                 std::to_string(rec.len) + " bytes, more than " +
                 std::to_string(NPHLS_FRAME_BYTES));
          host.held.push_back(
              {(uint32_t)dev, rec,
               std::vector<uint8_t>(data, data + rec.lead + rec.len)});
        }
        continue;
      }
      // The host's packets enter one at a time in the order it sent them,
      // over all slots, as they would reach the instances on one core
      // (the slots' batches come one slot after another).
      std::stable_sort(host.held.begin(), host.held.end(),
                       [](const FromHost &a, const FromHost &b) {
                         return a.rec.seq < b.rec.seq;
                       });
      for (const FromHost &h : host.held) {
        nphls_buf b;
        hostBuf(b, h.rec, h.bytes.data());
        host.fed[&devIn[h.dev]].push_back(h.rec.clock);
        nphls_write_flits(devIn[h.dev], b);
        settle();
      }
      host.held.clear();
      // The design's own input devices (the host passes their files) take
      // a turn at each SYNC, as the host's sources take theirs between
      // its polls of the slots; at END the rest enters.
      end = m->kind == NPRT_PCIE_END;
      hostClosed = end ? ~0u : m->closed;
      bool more = !ins.empty() && feedOne();
      while (more && end)
        more = feedOne();
      // Instances end as on one core once what feeds them ended: the
      // device streams still open are the slots whose host sender lives
      // and the inputs with packets left.
      std::vector<const nphls_pkt_stream *> open;
      for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s)
        if (slotDev[s] >= 0 && !(hostClosed >> s & 1u) &&
            (uint32_t)slotDev[s] < devIn.size())
          open.push_back(&devIn[slotDev[s]]);
      for (uint32_t i = 0; i < ins.size(); ++i)
        if (!outputFailed && next[i] < ins[i].records.size() &&
            ins[i].dev < devIn.size())
          open.push_back(&devIn[ins[i].dev]);
      while (nphls_csim_end_instances(open))
        settle();
      for (uint32_t s = 0; s < NPRT_PCIE_SLOTS; ++s)
        flushSlot(s);
      uint32_t kind = m->kind, closed = 0;
      for (const Output &o : outs)
        if (o.slot >= 0 && o.dev < devOut.size() &&
            nphls_csim_sender_ended(&devOut[o.dev]))
          closed |= 1u << o.slot;
      // The host judges its part of the graph, this side its own.
      if (end)
        deadlock = nphls_csim_deadlock(stderr);
      nprt_pcie_msg_init(m, kind, more ? 1 : 0);
      if (kind == NPRT_PCIE_SYNC) {
        m->closed = closed;
        m->clock = host.clock;
      }
      nprt_pcie_msg_seal(m);
      sendToHost(m);
    }
    delete m;
    for (nprt_pcie_msg *b : host.batch)
      delete b;
  }
  while (turn()) {
  }
  if (host.fd < 0) {
    while (nphls_csim_end_instances())
      settle();
    deadlock = nphls_csim_deadlock(stderr);
  }
  int rc = deadlock ? 3 : 0;
  for (const Input &in : ins)
    if (!in.error.empty()) {
      fprintf(stderr, "%s: error: %s: %s\n", prog, in.path.c_str(),
              in.error.c_str());
      rc = 1;
    }
  for (Output &o : outs) {
    if (o.f && fclose(o.f) != 0 && !o.error) {
      o.error = errno ? errno : EIO;
      fprintf(stderr, "%s: error: %s: cannot write: %s\n", prog, o.path.c_str(),
              strerror(o.error));
    }
    if (!o.error)
      continue;
    uint64_t kept = trimToRecords(o);
    if (kept < o.handed)
      fprintf(stderr, "%s: %s: %llu of %llu packets not written\n", prog,
              o.path.c_str(), (unsigned long long)(o.handed - kept),
              (unsigned long long)o.handed);
    rc = 1;
  }
  // As the C target's -h: the value alone, or "NAME:\nVALUE\n\n" for
  // each of several.
  bool names = reads.size() > 1;
  for (const std::string &h : reads) {
    size_t dot = h.rfind('.');
    nphls_csim_instance *inst = dot == std::string::npos
                                    ? nullptr
                                    : nphls_csim_find(h.substr(0, dot).c_str());
    const nprt_handler_desc *found = nullptr;
    for (uint32_t k = 0; inst && k < inst->n_handlers; ++k)
      if (h.substr(dot + 1) == inst->handlers[k].name)
        found = &inst->handlers[k];
    if (!found || found->write) {
      fprintf(stderr, "%s: error: %s'%s'%s\n", prog, found ? "" : "no ",
              h.c_str(), found ? " is a write handler" : " handler");
      rc = 1;
      continue;
    }
    found->fn(inst->self);
    std::string value = formatValue(found->result, inst->self->result);
    if (names)
      printf("%s:\n%s\n\n", h.c_str(), value.c_str());
    else
      printf("%s\n", value.c_str());
  }
  if (stats)
    for (uint32_t k = 0; k < nphls_csim_count(); ++k) {
      const nprt_inst *s = nphls_csim_at(k)->self;
      fprintf(stderr,
              "%-24s runs %llu received %llu sent %llu drops %llu faults "
              "%llu allocation_failures %llu buffered_flits %llu "
              "streamed_flits %llu spills %llu\n",
              s->name, (unsigned long long)s->counts.runs,
              (unsigned long long)s->counts.received,
              (unsigned long long)s->counts.sent,
              (unsigned long long)s->counts.drops,
              (unsigned long long)s->counts.faults,
              (unsigned long long)s->counts.alloc_failures,
              (unsigned long long)s->counts.buffered_flits,
              (unsigned long long)s->counts.streamed_flits,
              (unsigned long long)s->counts.spills);
    }
  for (size_t dv = 0; stats && dv < lost.size(); ++dv)
    if (lost[dv])
      fprintf(stderr, "output device %zu (no file): %llu packets discarded\n",
              dv, (unsigned long long)lost[dv]);
  return rc;
}
